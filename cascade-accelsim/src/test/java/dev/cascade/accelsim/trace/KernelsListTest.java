package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.GEMM;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeFixtures;
import static dev.cascade.accelsim.trace.TraceFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class KernelsListTest {

  @TempDir Path dir;

  @Test
  void read_keepsMemcpyAndKernelLinesInOrder() throws IOException {
    Path file =
        write(
            dir.resolve("kernelslist.g"),
            "MemcpyHtoD,0x00007efe7b500000,2052\r\n"
                + "\r\n"
                + "# a comment\n"
                + "kernel-1.traceg\n"
                + "  MemcpyHtoD,0x00007efe7b500a00,262144  \n"
                + "kernel-2.traceg.xz\n"
                + "kernels/kernel-3.traceg\n");

    KernelsList list = KernelsList.read(file);

    assertThat(list.entries())
        .containsExactly(
            new KernelsList.Memcpy(
                1, "MemcpyHtoD,0x00007efe7b500000,2052", "MemcpyHtoD", 0x00007efe7b500000L, 2052),
            new KernelsList.Kernel(4, "kernel-1.traceg", dir.resolve("kernel-1.traceg")),
            new KernelsList.Memcpy(
                5,
                "MemcpyHtoD,0x00007efe7b500a00,262144",
                "MemcpyHtoD",
                0x00007efe7b500a00L,
                262144),
            new KernelsList.Kernel(6, "kernel-2.traceg.xz", dir.resolve("kernel-2.traceg.xz")),
            new KernelsList.Kernel(
                7, "kernels/kernel-3.traceg", dir.resolve("kernels/kernel-3.traceg")));
    assertThat(list.kernelCount()).isEqualTo(3);
    assertThat(list.memcpys()).hasSize(2);
    assertThat(list.memcpys().getFirst().addressHex()).isEqualTo("0x00007efe7b500000");
    assertThat(list.folder()).isEqualTo(dir.toAbsolutePath().normalize());
  }

  @Test
  void read_resolvesKernelsAgainstTheListsFolder_notTheWorkingDirectory() throws IOException {
    Path sub = Files.createDirectories(dir.resolve("a/b"));
    write(sub.resolve("kernelslist.g"), "kernel-1.traceg\n");

    KernelsList list = KernelsList.read(sub.resolve("kernelslist.g"));

    assertThat(list.kernels().getFirst().file())
        .isEqualTo(sub.toAbsolutePath().normalize().resolve("kernel-1.traceg"));
  }

  @Test
  void read_malformedMemcpy_failsNamingFileAndLine() throws IOException {
    Path file = write(dir.resolve("kernelslist.g"), "kernel-1.traceg\nMemcpyHtoD,0xZZ,12\n");

    assertThatThrownBy(() -> KernelsList.read(file))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(
            file
                + ":2: memcpy line 'MemcpyHtoD,0xZZ,12' is not of the form"
                + " 'MemcpyHtoD,0x<hex address>,<bytes>'")
        .satisfies(
            e -> {
              TraceFormatException format = (TraceFormatException) e;
              assertThat(format.file()).isEqualTo(file);
              assertThat(format.line()).isEqualTo(2);
            });
  }

  @Test
  void read_unknownLine_failsNamingFileAndLine() throws IOException {
    Path file = write(dir.resolve("kernelslist.g"), "kernel-1.traceg\n\n./kernel-2.traceg\n");

    assertThatThrownBy(() -> KernelsList.read(file))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(file + ":3: './kernel-2.traceg' is neither a memcpy line");
  }

  @Test
  void read_kernelPathLeavingTheFolder_fails() throws IOException {
    Path file = write(dir.resolve("kernelslist.g"), "kernel/../../etc/passwd\n");

    assertThatThrownBy(() -> KernelsList.read(file))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(":1: kernel file 'kernel/../../etc/passwd' is outside");
  }

  @Test
  void read_flashinferGemm_hasEightKernelsAndNoMemcpys() throws IOException {
    assumeFixtures();
    KernelsList list = KernelsList.read(GEMM.resolve("kernelslist.g"));

    assertThat(list.kernelCount()).isEqualTo(8);
    assertThat(list.memcpys()).isEmpty();
    assertThat(list.kernels())
        .extracting(KernelsList.Kernel::line)
        .containsExactly(
            "kernel-1.traceg.xz",
            "kernel-2.traceg.xz",
            "kernel-3.traceg.xz",
            "kernel-4.traceg.xz",
            "kernel-5.traceg.xz",
            "kernel-6.traceg.xz",
            "kernel-7.traceg.xz",
            "kernel-8.traceg.xz");
  }
}
