package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulator that needs a library found only in its Accel-Sim build's {@code
 * gpu-simulator/gpgpu-sim/lib/.../release} folder starts with the environment Cascade gives sims,
 * and cannot start without it, saying so in the loader's words. Builds a tiny library and program
 * with the C compiler; skips where there is none.
 */
final class AccelSimLibrariesIT {

  @TempDir Path folder;

  @Test
  void simEnvironment_letsTheSimulatorFindTheBuildsLibraries() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/cc")), "needs a C compiler at /usr/bin/cc");
    Path accelSim = folder.resolve("accel-sim");
    Files.createDirectories(accelSim.resolve("gpu-simulator/gpgpu-sim/configs/tested-cfgs"));
    Path release =
        Files.createDirectories(
            accelSim.resolve("gpu-simulator/gpgpu-sim/lib/gcc-12/cuda-12080/release"));
    Path bin = Files.createDirectories(accelSim.resolve("gpu-simulator/bin/release"));
    Path source = folder.resolve("lib.c");
    Files.writeString(source, "int cascade_gpgpusim_init(void) { return 0; }\n");
    run(
        List.of(
            "cc",
            "-shared",
            "-fPIC",
            "-o",
            release.resolve("libcudart.so").toString(),
            source.toString()),
        Map.of());
    Path main = folder.resolve("main.c");
    Files.writeString(
        main,
        "int cascade_gpgpusim_init(void);\nint main(void) { return cascade_gpgpusim_init(); }\n");
    Path binary = bin.resolve("accel-sim.out");
    run(
        List.of("cc", "-o", binary.toString(), main.toString(), "-L" + release, "-lcudart"),
        Map.of());

    Map<String, String> simEnvironment =
        CascadeSettings.builder()
            .fromEnvironment(Map.of("CASCADE_ACCELSIM_DIR", accelSim.toString()))
            .dataDir(folder.resolve("data"))
            .settings()
            .simEnvironment();

    assertThat(run(List.of(binary.toString()), simEnvironment).exitCode()).isZero();
    Result without = run(List.of(binary.toString()), Map.of("LD_LIBRARY_PATH", "/nonexistent"));
    assertThat(without.exitCode()).isEqualTo(127);
    // Where the system has a libcudart.so of its own, the loader takes it and misses the symbol.
    assertThat(without.output())
        .containsAnyOf(
            "error while loading shared libraries: libcudart.so",
            "symbol lookup error",
            "undefined symbol: cascade_gpgpusim_init");
  }

  private record Result(int exitCode, String output) {}

  private static Result run(List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("LD_LIBRARY_PATH");
    builder.environment().putAll(environment);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), output);
  }
}
