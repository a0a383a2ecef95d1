package dev.cascade.agent.emulator;

import static dev.cascade.agent.emulator.TestTraces.kernel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.accelsim.trace.TraceFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The emulator's counts computed once per trace and kept beside its kernels list. */
final class PrecomputedCountsTest {

  @TempDir Path dir;

  private Path trace;
  private Path list;

  @BeforeEach
  void writeTrace() throws Exception {
    trace =
        TestTraces.write(
            dir.resolve("t"),
            List.of(kernel("_Z4axpyPfS_", 64), kernel("_Z6reducePf", 8), kernel("_Z3mmav", 3)),
            List.of("MemcpyHtoD,0x00007f0000000000,4096"));
    list = trace.resolve("kernelslist.g");
  }

  private List<EmulatedKernel> fromTheTrace(long limit) throws Exception {
    return EmulatedTrace.load(trace, limit, PrecomputedCounts.NONE).kernels();
  }

  private List<EmulatedKernel> asASimLoadsIt(long limit) throws Exception {
    return EmulatedTrace.load(trace, limit).kernels();
  }

  @Test
  void precomputedCounts_equalWhatTheEmulatorCountsInTheTrace_countedOrEstimated()
      throws Exception {
    List<EmulatedKernel> counted = fromTheTrace(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES);
    List<EmulatedKernel> estimated = fromTheTrace(0);

    PrecomputedCounts.write(list);

    assertThat(PrecomputedCounts.fileFor(list)).isRegularFile();
    assertThat(counted).allMatch(EmulatedKernel::counted);
    assertThat(asASimLoadsIt(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES)).isEqualTo(counted);
    assertThat(estimated).noneMatch(EmulatedKernel::counted);
    assertThat(asASimLoadsIt(0)).isEqualTo(estimated);
  }

  @Test
  void withPrecomputedCounts_theKernelFilesAreNotRead() throws Exception {
    List<EmulatedKernel> before = fromTheTrace(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES);
    PrecomputedCounts.write(list);
    for (int i = 1; i <= 3; i++) {
      Path file = trace.resolve("kernel-" + i + ".traceg");
      Files.write(file, "x".repeat((int) Files.size(file)).getBytes(StandardCharsets.US_ASCII));
    }

    assertThat(asASimLoadsIt(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES)).isEqualTo(before);

    Files.delete(PrecomputedCounts.fileFor(list));
    assertThatThrownBy(() -> asASimLoadsIt(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES))
        .isInstanceOf(TraceFormatException.class);
  }

  @Test
  void aKernelFileChangedSince_isCountedFromTheFileAgain() throws Exception {
    PrecomputedCounts.write(list);
    Files.writeString(
        trace.resolve("kernel-2.traceg"),
        "\n#BEGIN_TB\n\nthread block = 9,0,0\n\nwarp = 0\ninsts = 1\n"
            + "0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000009000 4 0 \n#END_TB\n",
        StandardOpenOption.APPEND);

    List<EmulatedKernel> now = asASimLoadsIt(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES);

    assertThat(now).isEqualTo(fromTheTrace(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES));
    assertThat(now.get(1).globalLoads()).isEqualTo(8 * 4 * 4 + 1);
  }

  @Test
  void countsThatDoNotParse_areIgnored_andTheTraceIsRead() throws Exception {
    List<EmulatedKernel> expected = fromTheTrace(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES);
    PrecomputedCounts.write(list);
    String text = Files.readString(PrecomputedCounts.fileFor(list));
    Files.writeString(PrecomputedCounts.fileFor(list), text.replace("kernel 2 ", "kernel two "));

    assertThat(asASimLoadsIt(EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES)).isEqualTo(expected);
  }

  @Test
  void theEmulatorPrintsTheSameBytes_withOrWithoutPrecomputedCounts() throws Exception {
    for (String config : List.of("SM90_H100", "SM90_H200")) {
      EmulatorOptions options = EmulatorOptions.of(trace, config).withReplica(2);
      Files.deleteIfExists(PrecomputedCounts.fileFor(list));
      String without = emulate(options);
      PrecomputedCounts.write(list);
      String with = emulate(options);

      assertThat(with).isEqualTo(without).contains("gpu_tot_sim_cycle");
    }
  }

  private static String emulate(EmulatorOptions options) throws Exception {
    Emulation emulation = Emulator.prepare(options.withSpeed(0));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Emulator.run(emulation, 0, out, new VirtualPacer());
    return out.toString(StandardCharsets.UTF_8);
  }
}
