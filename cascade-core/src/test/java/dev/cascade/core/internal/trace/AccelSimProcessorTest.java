package dev.cascade.core.internal.trace;

import static dev.cascade.core.internal.trace.TestTraces.traceg;
import static dev.cascade.core.internal.trace.TestTraces.write;
import static dev.cascade.core.internal.trace.TestTraces.writeProcessedTrace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.TraceKernel;
import dev.cascade.core.internal.trace.TraceProcessor.Facts;
import dev.cascade.core.internal.trace.TraceProcessor.TraceProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AccelSimProcessorTest {

  private static final String RAW_TRACE =
      "-kernel name = raw_kernel\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
          + "-shmem = 0\n-nregs = 8\n-binary version = 90\n-cuda stream id = 0\n"
          + "-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = 1.7\n"
          + "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#traces format = [line_num]"
          + " PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width"
          + " [adrrescompress?] [mem_addresses] immediate\n\n"
          + "0 0 0 0 0080 00000003 1 R9 IMAD.MOV.U32 1 R4 0 7 \n"
          + "0 0 0 0 0090 00000003 0 EXIT 0 0 0 \n";

  @TempDir Path trace;
  @TempDir Path outside;
  private final AccelSimProcessor processor = new AccelSimProcessor();

  private String failure() {
    return org.assertj.core.api.Assertions.catchThrowableOfType(
            TraceProcessingException.class, () -> processor.process(trace))
        .getMessage();
  }

  @Test
  void process_readsKernelLinesHeadersAndSmallInstructionCounts() throws Exception {
    writeProcessedTrace(trace, "{}", 2);

    Facts facts = processor.process(trace);

    assertThat(facts.postProcessed()).isFalse();
    assertThat(facts.kernelCount()).isEqualTo(2);
    assertThat(facts.kernels())
        .containsExactly(
            new TraceKernel(1, "kernel-1.traceg", "k1", "2,1,1", "64,1,1", 2L),
            new TraceKernel(2, "kernel-2.traceg", "k2", "2,1,1", "64,1,1", 2L));
  }

  @Test
  void process_bigKernelFile_keepsItsHeaderButDoesNotCountInstructions() throws Exception {
    write(trace.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    String line = "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 \n";
    String big =
        traceg("big", 1, "4,1,1", "128,1,1")
            .replace("insts = 2", "insts = " + (2 + 30_000))
            .replace("#END_TB", line.repeat(30_000) + "#END_TB");
    write(trace.resolve("traces/kernel-1.traceg"), big);
    assertThat(Files.size(trace.resolve("traces/kernel-1.traceg")))
        .isGreaterThan(AccelSimProcessor.COUNT_INSTRUCTIONS_UP_TO_BYTES);

    Facts facts = processor.process(trace);

    assertThat(facts.kernels())
        .containsExactly(new TraceKernel(1, "kernel-1.traceg", "big", "4,1,1", "128,1,1", null));
  }

  @Test
  void process_removesWhatAKilledPostProcessingLeft_andNothingElse() throws Exception {
    write(
        trace.resolve("traces/kernelslist"), "MemcpyHtoD,0x0000000000001000,64\nkernel-1.trace\n");
    write(trace.resolve("traces/kernel-1.trace"), RAW_TRACE);
    // What a kill -9 in the middle of post-processing leaves behind.
    write(trace.resolve("traces/.kernel-3.traceg.1f3a9c0de.tmp"), "x".repeat(1000));
    write(trace.resolve("traces/.kernel-1.traceg.7b.tmp"), "");
    write(trace.resolve("traces/.kernel-1.traceg.spill-2c4e.tmp"), "partial");
    write(trace.resolve("traces/notes.tmp"), "a user's file");

    Facts facts = processor.process(trace);

    assertThat(facts.postProcessed()).isTrue();
    try (var files = Files.list(trace.resolve("traces"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .noneMatch(name -> name.startsWith(".") && name.endsWith(".tmp"))
          .contains("notes.tmp", "kernel-1.traceg", "kernelslist.g");
    }
  }

  @Test
  void process_rawTrace_isPostProcessedFirst() throws Exception {
    write(
        trace.resolve("traces/kernelslist"), "MemcpyHtoD,0x0000000000001000,64\nkernel-1.trace\n");
    write(trace.resolve("traces/kernel-1.trace"), RAW_TRACE);

    Facts facts = processor.process(trace);

    assertThat(facts.postProcessed()).isTrue();
    assertThat(trace.resolve("traces/kernelslist.g"))
        .hasContent("MemcpyHtoD,0x0000000000001000,64\nkernel-1.traceg");
    assertThat(trace.resolve("traces/kernel-1.traceg")).exists();
    assertThat(facts.kernels())
        .containsExactly(
            new TraceKernel(1, "kernel-1.traceg", "raw_kernel", "1,1,1", "32,1,1", 2L));
  }

  @Test
  void process_perContextRawLists_arePostProcessed_theFirstContextAsKernelslistG()
      throws Exception {
    String elevenIds =
        RAW_TRACE
            .replace("0 0 0 0 0080", "0 0 0 0 0 0 0 0 0 0 0 0080")
            .replace("0 0 0 0 0090", "0 0 0 0 0 0 0 0 0 0 0 0090");
    write(trace.resolve("traces/kernelslist_ctx_0x2"), "kernel-2-ctx_0x2.trace\n");
    write(trace.resolve("traces/kernelslist_ctx_0x1"), "kernel-1-ctx_0x1.trace\n");
    write(trace.resolve("traces/kernel-1-ctx_0x1.trace"), elevenIds);
    write(trace.resolve("traces/kernel-2-ctx_0x2.trace"), elevenIds);

    Facts facts = processor.process(trace);

    assertThat(facts.postProcessed()).isTrue();
    assertThat(trace.resolve("traces/kernelslist.g")).hasContent("kernel-1-ctx_0x1.traceg");
    assertThat(trace.resolve("traces/kernelslist_ctx_0x2.g")).hasContent("kernel-2-ctx_0x2.traceg");
    assertThat(facts.kernels())
        .containsExactly(
            new TraceKernel(1, "kernel-1-ctx_0x1.traceg", "raw_kernel", "1,1,1", "32,1,1", 2L));
  }

  @Test
  void process_brokenRawTrace_failsNamingFileAndLine() {
    write(trace.resolve("traces/kernelslist"), "kernel-1.trace\n");
    write(trace.resolve("traces/kernel-1.trace"), RAW_TRACE + "0 0 0\n");

    assertThat(failure()).matches("traces/kernel-1\\.trace:\\d+: .+");
    assertThat(trace.resolve("traces/kernelslist.g")).doesNotExist();
  }

  @Test
  void process_withoutAnyKernelsList_failsSayingWhatToUpload() {
    write(trace.resolve("metadata.json"), "{}");

    assertThat(failure())
        .contains("traces/kernelslist.g is missing")
        .contains("traces/kernelslist");
  }

  @Test
  void process_corruptKernelsList_failsNamingFileAndLine() {
    writeProcessedTrace(trace, "{}", 1);
    write(trace.resolve("traces/kernelslist.g"), "kernel-1.traceg\n\nMemcpyHtoD,nonsense\n");

    assertThat(failure()).startsWith("traces/kernelslist.g:3: ").contains("MemcpyHtoD,nonsense");
  }

  @Test
  void process_kernelPathLeavingTheFolder_isRefused() {
    writeProcessedTrace(trace, "{}", 1);
    write(trace.resolve("traces/kernelslist.g"), "kernel-1.traceg\nkernel/../../../etc/passwd\n");

    assertThat(failure()).startsWith("traces/kernelslist.g:2: ").contains("outside");
  }

  @Test
  void process_corruptXzKernel_failsNamingTheFile() throws IOException {
    write(trace.resolve("traces/kernelslist.g"), "kernel-1.traceg.xz\n");
    byte[] xzMagicThenGarbage = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0, 'n', 'o', 'p', 'e', 1, 2, 3};
    Files.write(trace.resolve("traces/kernel-1.traceg.xz"), xzMagicThenGarbage);

    assertThat(failure()).startsWith("traces/kernel-1.traceg.xz");
  }

  @Test
  void process_symbolicLinks_areNeverFollowed() throws IOException {
    writeProcessedTrace(outside, "{}", 1);
    write(trace.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    Files.createSymbolicLink(
        trace.resolve("traces/kernel-1.traceg"), outside.resolve("traces/kernel-1.traceg"));
    assertThat(failure()).contains("traces/kernel-1.traceg is a symbolic link");

    Files.delete(trace.resolve("traces/kernel-1.traceg"));
    Files.delete(trace.resolve("traces/kernelslist.g"));
    Files.createSymbolicLink(
        trace.resolve("traces/kernelslist.g"), outside.resolve("traces/kernelslist.g"));
    assertThat(failure()).contains("traces/kernelslist.g is a symbolic link");

    Files.delete(trace.resolve("traces/kernelslist.g"));
    Files.delete(trace.resolve("traces"));
    Files.createSymbolicLink(trace.resolve("traces"), outside.resolve("traces"));
    assertThat(failure()).contains("traces is a symbolic link");
  }

  @Test
  void process_rawKernelThatIsALink_isRefusedBeforePostProcessing() throws IOException {
    write(outside.resolve("kernel-1.trace"), RAW_TRACE);
    write(trace.resolve("traces/kernelslist"), "kernel-1.trace\n");
    Files.createSymbolicLink(
        trace.resolve("traces/kernel-1.trace"), outside.resolve("kernel-1.trace"));

    assertThat(failure()).contains("traces/kernel-1.trace is a symbolic link");
    assertThatThrownBy(() -> Files.readString(trace.resolve("traces/kernelslist.g")))
        .isInstanceOf(IOException.class);
  }
}
