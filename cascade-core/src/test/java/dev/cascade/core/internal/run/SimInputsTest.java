package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.GpuConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulator's identity, as far as the sim command tells it before launch. */
final class SimInputsTest {

  @TempDir Path dir;

  @Test
  void simulatorOf_theEmulator_isItsVersion() {
    assertThat(new SimInputs(List.of()).simulatorOf(List.of("java", "Agent", "--emulate")))
        .contains("cascade-emulator-2.0");
  }

  @Test
  void simulatorOf_aBinaryAfterTheAgentsSeparator_isItsHash_andChangesWithIt() throws IOException {
    Path binary = Files.writeString(dir.resolve("accel-sim.out"), "build one");
    List<String> command = List.of("java", "Agent", "--", binary.toString(), "-trace", "x");
    String first = new SimInputs(List.of()).simulatorOf(command).orElseThrow();
    assertThat(first).startsWith("sha256:").hasSize(7 + 64);

    Files.writeString(binary, "build two");
    Files.setLastModifiedTime(binary, FileTime.fromMillis(System.currentTimeMillis() + 5000));
    assertThat(new SimInputs(List.of()).simulatorOf(command).orElseThrow()).isNotEqualTo(first);
  }

  @Test
  void simulatorOf_aShellInFront_isUnknown_forItCouldRunAnything() {
    assertThat(
            new SimInputs(List.of())
                .simulatorOf(List.of("/bin/sh", "-c", "exec accel-sim.out -trace x")))
        .isEmpty();
  }

  @Test
  void configHash_isTheSameForTheSameTwoFiles_besideOrKeptApart() throws IOException {
    Path beside = Files.createDirectories(dir.resolve("beside/SM7_QV100"));
    Files.writeString(beside.resolve("gpgpusim.config"), "-gpgpu_n_clusters 80\n");
    Files.writeString(beside.resolve("trace.config"), "-trace_opcode_latency_initiation_int 2,2\n");
    Path upstream = Files.createDirectories(dir.resolve("upstream/gpgpu-sim/SM7_QV100"));
    Files.writeString(upstream.resolve("gpgpusim.config"), "-gpgpu_n_clusters 80\n");
    Path apart =
        Files.writeString(
            Files.createDirectories(dir.resolve("upstream/accel-sim/SM7_QV100"))
                .resolve("trace.config"),
            "-trace_opcode_latency_initiation_int 2,2\n");
    SimInputs inputs = new SimInputs(List.of());

    String besideHash = inputs.of(dir, config(beside, beside.resolve("trace.config"))).configHash();
    String apartHash = inputs.of(dir, config(upstream, apart)).configHash();
    String withoutHash = inputs.of(dir, config(upstream, null)).configHash();

    assertThat(besideHash).startsWith("sha256:").isEqualTo(apartHash);
    assertThat(withoutHash).isNotEqualTo(apartHash);
  }

  private static GpuConfig config(Path directory, Path traceConfig) {
    return new GpuConfig(
        "SM7_QV100",
        "sm_70",
        1132,
        80,
        traceConfig != null,
        true,
        null,
        List.of(),
        directory,
        traceConfig);
  }
}
