package dev.cascade.core.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A made-up built Accel-Sim for tests of {@code cascade doctor}: the folder layout of
 * accel-sim-framework, one GPU config ({@code SM7_QV100}), and an {@code accel-sim.out} that is a
 * shell script or a C program printing a minimal one-kernel log.
 */
public final class FakeAccelSim {

  /** The binary, under the Accel-Sim folder. */
  public static final String BINARY = "gpu-simulator/bin/release/accel-sim.out";

  /** The config folder, under the Accel-Sim folder. */
  public static final String CONFIGS = "gpu-simulator/gpgpu-sim/configs/tested-cfgs";

  /**
   * Where upstream Accel-Sim keeps each config's trace.config, apart from its gpgpusim.config,
   * under the Accel-Sim folder: {@code <this>/<name>/trace.config}.
   */
  public static final String TRACE_CONFIGS = "gpu-simulator/configs/tested-cfgs";

  /** The interconnect file {@link #withUpstreamLayout}'s gpgpusim.config names relatively. */
  public static final String ICNT = "config_volta_islip.icnt";

  /** GPGPU-Sim's library folder of a build, under the Accel-Sim folder. */
  public static final String RELEASE = "gpu-simulator/gpgpu-sim/lib/gcc-12.2.0/cuda-12080/release";

  /** The cycles and instructions the minimal log's one kernel has. */
  public static final long CYCLES = 1234;

  public static final long INSTRUCTIONS = 5678;

  /** A minimal accel-sim.out log of one kernel, complete. */
  public static final String LOG =
      """
      Accel-Sim [build accelsim-commit-fake_for_tests]
      launching kernel name: cascade_doctor_smoke_kernel uid: 1
      kernel_name = cascade_doctor_smoke_kernel\s
      kernel_launch_uid = 1\s
      gpu_sim_cycle = 1234
      gpu_sim_insn = 5678
      gpu_ipc =       4.6013
      gpu_tot_sim_cycle = 1234
      gpu_tot_sim_insn = 5678
      gpgpu_simulation_time = 0 days, 0 hrs, 0 min, 1 sec (1 sec)
      gpgpu_simulation_rate = 5678 (inst/sec)
      gpgpu_simulation_rate = 1234 (cycle/sec)
      gpgpu_silicon_slowdown = 1000x
      GPGPU-Sim: *** simulation thread exiting ***
      GPGPU-Sim: *** exit detected ***
      """;

  private FakeAccelSim() {}

  /**
   * An Accel-Sim folder whose {@code accel-sim.out} is a shell script with {@code body} (it gets
   * the simulator's arguments), and a usable {@code SM7_QV100} with a trace.config.
   */
  public static Path withScript(Path folder, String body) throws IOException {
    Path accelSim = withConfig(folder);
    Path binary = accelSim.resolve(BINARY);
    Files.createDirectories(binary.getParent());
    Files.writeString(binary, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
    return accelSim;
  }

  /** A script body that checks the trace it is given exists, then prints {@link #LOG}. */
  public static String printsTheLog() {
    return "[ \"$1\" = -trace ] && [ -f \"$2\" ] || { echo \"no trace given: $*\"; exit 3; }\n"
        + "cat <<'LOG'\n"
        + LOG
        + "LOG";
  }

  /** The folder layout and the {@code SM7_QV100} config, with no binary. */
  public static Path withConfig(Path folder) throws IOException {
    Path accelSim = folder.resolve("accel-sim-framework");
    Path config = Files.createDirectories(accelSim.resolve(CONFIGS).resolve("SM7_QV100"));
    Files.writeString(
        config.resolve("gpgpusim.config"),
        """
        -gpgpu_compute_capability_major 7
        -gpgpu_compute_capability_minor 0
        -gpgpu_n_clusters 80
        -gpgpu_n_cores_per_cluster 1
        -gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0
        """);
    Files.writeString(config.resolve("trace.config"), "-trace_opcode_latency_initiation_int 2,2\n");
    return accelSim;
  }

  /**
   * Lays {@code accelSim}'s {@code SM7_QV100} out as a stock Accel-Sim checkout does: its
   * trace.config moved to {@link #TRACE_CONFIGS}{@code /SM7_QV100/}, and its gpgpusim.config naming
   * an interconnect file ({@link #ICNT}, beside it) by a relative path, as the Fermi, Kepler,
   * Pascal and Hopper configs do. Returns the trace.config's new place.
   */
  public static Path withUpstreamLayout(Path accelSim) throws IOException {
    Path config = accelSim.resolve(CONFIGS).resolve("SM7_QV100");
    Path apart = Files.createDirectories(accelSim.resolve(TRACE_CONFIGS).resolve("SM7_QV100"));
    Files.move(config.resolve("trace.config"), apart.resolve("trace.config"));
    Files.writeString(
        config.resolve("gpgpusim.config"),
        "-network_mode 1\n-inter_config_file " + ICNT + "\n",
        StandardOpenOption.APPEND);
    Files.writeString(config.resolve(ICNT), "network_count = 2;\ntopology = fly;\n");
    return apart.resolve("trace.config");
  }

  /**
   * A script body that checks its arguments as {@code accel-sim.out} reads them ({@code -trace LIST
   * -config GPGPUSIM -config TRACE}, each an existing file, and the interconnect file
   * gpgpusim.config names opened from the working folder, as GPGPU-Sim opens it), says which
   * trace.config it read ({@code read trace.config PATH: FIRST LINE}), then prints {@link #LOG};
   * exits 3 to 6 naming what is missing.
   */
  public static String checksItsConfigsAndPrintsTheLog() {
    return "[ \"$1\" = -trace ] && [ -f \"$2\" ] || { echo \"no trace given: $*\"; exit 3; }\n"
        + "[ \"$3\" = -config ] && [ -f \"$4\" ] || { echo \"no gpgpusim.config: $*\"; exit 4; }\n"
        + "[ \"$5\" = -config ] && [ -f \"$6\" ] || { echo \"no trace.config: $*\"; exit 5; }\n"
        + "icnt=$(awk '$1 == \"-inter_config_file\" {print $2}' \"$4\")\n"
        + "[ -z \"$icnt\" ] || [ -f \"$icnt\" ] || {"
        + " echo \"GPGPU-Sim: cannot open $icnt in $(pwd)\"; exit 6; }\n"
        + "echo \"read trace.config $6: $(head -1 \"$6\")\"\n"
        + printsTheLog().substring(printsTheLog().indexOf("cat <<"));
  }

  /** Whether this machine has the C compiler {@link #withProgram} needs. */
  public static boolean hasCompiler() {
    return Files.isExecutable(Path.of("/usr/bin/cc"));
  }

  /**
   * An Accel-Sim folder whose {@code accel-sim.out} is a C program linked against {@code
   * lib<library>.so} (it calls a function of it, then prints {@link #LOG}). With {@code
   * libraryInRelease} the library is in the build's {@link #RELEASE} folder, where Cascade finds it
   * for sims; without, it was in a folder of its own and is deleted after linking, so the loader
   * finds it nowhere (unless the system has one of that name: then not the one linked against).
   */
  public static Path withProgram(Path folder, String library, boolean libraryInRelease)
      throws IOException, InterruptedException {
    Path accelSim = withConfig(folder);
    Path libraryFolder =
        libraryInRelease
            ? Files.createDirectories(accelSim.resolve(RELEASE))
            : Files.createDirectories(folder.resolve("elsewhere"));
    Path libraryFile = libraryFolder.resolve("lib" + library + ".so");
    Path libSource = folder.resolve("library.c");
    Files.writeString(libSource, "int cascade_gpgpusim_init(void) { return 0; }\n");
    cc(List.of("-shared", "-fPIC", "-o", libraryFile.toString(), libSource.toString()));
    Path main = folder.resolve("main.c");
    StringBuilder print = new StringBuilder();
    for (String line : LOG.lines().toList()) {
      print
          .append("  puts(\"")
          .append(line.replace("\\", "\\\\").replace("\"", "\\\""))
          .append("\");\n");
    }
    Files.writeString(
        main,
        "#include <stdio.h>\nint cascade_gpgpusim_init(void);\n"
            + "int main(void) {\n  if (cascade_gpgpusim_init() != 0) return 1;\n"
            + print
            + "  return 0;\n}\n");
    Path binary = accelSim.resolve(BINARY);
    Files.createDirectories(binary.getParent());
    cc(List.of("-o", binary.toString(), main.toString(), "-L" + libraryFolder, "-l" + library));
    if (!libraryInRelease) {
      Files.delete(libraryFile);
    }
    return accelSim;
  }

  /**
   * A folder holding a {@code lib<library>.so} without the function {@link #withProgram}'s program
   * calls: on {@code LD_LIBRARY_PATH}, the loader takes it and the program stops with "symbol
   * lookup error".
   */
  public static Path decoyLibrary(Path folder, String library)
      throws IOException, InterruptedException {
    Path decoys = Files.createDirectories(folder.resolve("decoy"));
    Path source = folder.resolve("decoy.c");
    Files.writeString(source, "int cascade_something_else(void) { return 0; }\n");
    cc(
        List.of(
            "-shared",
            "-fPIC",
            "-o",
            decoys.resolve("lib" + library + ".so").toString(),
            source.toString()));
    return decoys;
  }

  private static void cc(List<String> arguments) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add("/usr/bin/cc");
    command.addAll(arguments);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("cc failed: " + command + "\n" + output);
    }
  }
}
