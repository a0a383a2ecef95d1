package dev.cascade.core;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.agent.SimContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The commands sims run when the user does not give one ({@code CASCADE_SIM_CMD}): Cascade's lean
 * sim agent running a real {@code accel-sim.out} ({@link #accelSim}), or running Cascade's emulator
 * in its own JVM ({@link #emulator}). {@link CascadeSettings#simCommandFromEnvironment} picks one
 * from the environment as {@code cascade serve} does.
 */
public final class SimCommands {

  /** Where a built Accel-Sim keeps its simulator, under {@code CASCADE_ACCELSIM_DIR}. */
  public static final String ACCELSIM_BINARY = "gpu-simulator/bin/release/accel-sim.out";

  /**
   * Where a built Accel-Sim keeps GPGPU-Sim's libraries (its {@code libcudart.so}), under {@code
   * CASCADE_ACCELSIM_DIR}: {@code lib/<gcc-version>/<cuda-version>/release} below this, as
   * GPGPU-Sim's {@code setup_environment} puts them on {@code LD_LIBRARY_PATH}.
   */
  public static final String ACCELSIM_LIBRARIES = "gpu-simulator/gpgpu-sim/lib";

  /**
   * Emulated cycles per second of the sims Cascade starts ({@code serve}, {@code run}, an embedded
   * {@code Cascade}) when {@code CASCADE_EMULATE_SPEED} is unset: a demo sim (about 54,000 cycles)
   * takes ~15 s, so its progress shows. {@code cascade emulate} run by hand has its own default
   * ({@code EmulatorOptions.DEFAULT_SPEED}). The docs and the {@code --help} of {@code run} and
   * {@code emulate} say this number; {@code CASCADE_EMULATE_SPEED=0} runs sims as fast as they can.
   */
  public static final String DEMO_SPEED = "4000";

  /**
   * About how many cycles one sim of the demo trace simulates (54,108 on {@code SM90_H100}): what
   * the emulator's pace is told against, so a user sees what a run will take.
   */
  public static final long DEMO_SIM_CYCLES = 54_000;

  /** A sim command, and why it was chosen, for the start-up log. */
  public record Choice(List<String> command, String description) {
    public Choice {
      command = List.copyOf(command);
    }
  }

  private SimCommands() {}

  /**
   * The built {@code accel-sim.out} under {@code accelSimDir} ({@link #ACCELSIM_BINARY}), when it
   * is there and executable.
   */
  public static Optional<Path> accelSimIn(Path accelSimDir) {
    Path binary = accelSimDir.resolve(ACCELSIM_BINARY);
    return Files.isExecutable(binary) ? Optional.of(binary) : Optional.empty();
  }

  /**
   * The folders of a built Accel-Sim's libraries: every folder named {@code release} up to three
   * levels below {@link #ACCELSIM_LIBRARIES} ({@code lib/gcc-11.4.0/cuda-12080/release}), sorted;
   * empty when there is none.
   */
  public static List<Path> accelSimLibraries(Path accelSimDir) {
    Path root = accelSimDir.resolve(ACCELSIM_LIBRARIES);
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> folders = Files.walk(root, 3)) {
      return folders
          .filter(folder -> folder.getFileName().toString().equals("release"))
          .filter(Files::isDirectory)
          .sorted()
          .toList();
    } catch (java.io.IOException e) {
      return List.of(); // an unreadable folder: no libraries to offer
    }
  }

  /**
   * The {@code LD_LIBRARY_PATH} a sim of the Accel-Sim at {@code accelSimDir} needs: its library
   * folders ({@link #accelSimLibraries}) before {@code inherited} (the app's own, when set), so
   * that {@code accel-sim.out} finds GPGPU-Sim's {@code libcudart.so} as after Accel-Sim's {@code
   * setup_environment}; empty when there is no library folder.
   */
  public static Optional<String> accelSimLibraryPath(Path accelSimDir, String inherited) {
    List<Path> libraries = accelSimLibraries(accelSimDir);
    if (libraries.isEmpty()) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    libraries.forEach(folder -> parts.add(folder.toAbsolutePath().toString()));
    if (inherited != null && !inherited.isBlank()) {
      parts.add(inherited);
    }
    return Optional.of(String.join(java.io.File.pathSeparator, parts));
  }

  /**
   * The sim agent running Accel-Sim's {@code binary} on the sim's trace and GPU config (the
   * launcher fills in the sim contract's folders).
   */
  public static List<String> accelSim(Path binary, Path dataDir) {
    List<String> command = agent(dataDir);
    command.addAll(
        List.of(
            "--",
            binary.toString(),
            "-trace",
            "${" + SimContract.TRACE_DIR + "}/traces/kernelslist.g",
            "-config",
            "${" + SimContract.GPU_CONFIG_DIR + "}/gpgpusim.config",
            "-config",
            "${" + SimContract.GPU_CONFIG_DIR + "}/trace.config"));
    return command;
  }

  /**
   * The emulator's pace in a command {@link #emulator} made: the simulated cycles per second after
   * its {@code --speed} (0: as fast as it can); empty for any other command.
   */
  public static OptionalDouble emulatorSpeed(List<String> command) {
    int speed = command.indexOf("--speed");
    if (!command.contains("--emulate") || speed < 0 || speed + 1 >= command.size()) {
      return OptionalDouble.empty();
    }
    try {
      double value = Double.parseDouble(command.get(speed + 1));
      return value >= 0 && Double.isFinite(value)
          ? OptionalDouble.of(value)
          : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      return OptionalDouble.empty();
    }
  }

  /** True when {@code command} is one {@link #accelSim} made: the agent running Accel-Sim. */
  public static boolean runsAccelSim(List<String> command) {
    int separator = command.indexOf("--");
    return separator >= 0
        && separator + 1 < command.size()
        && command.get(separator + 1).endsWith(Path.of(ACCELSIM_BINARY).getFileName().toString());
  }

  /**
   * The sim agent running Cascade's emulator at {@code speed} emulated cycles per second (0 for as
   * fast as it can), spelled out so the sims get it even when their environment says otherwise.
   */
  public static List<String> emulator(String speed, Path dataDir) {
    List<String> command = agent(dataDir);
    command.addAll(List.of("--emulate", "--speed", speed));
    return command;
  }

  /**
   * The sim agent's JVM: this Java, a class path of only cascade-agent and its dependencies ({@link
   * SimAgentMain#classPath}), the serial collector, a small heap, the quick compiler for hot code
   * only, a class-data-sharing archive in the data dir that the first agent creates and later ones
   * reuse, and native access, with which the agent makes itself undumpable without a warning.
   */
  static List<String> agent(Path dataDir) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable());
    // The agent calls prctl through the foreign-function API (Undumpable): the JVM warns of it on
    // stderr, the sim's log, unless native access is allowed (Java 25 does; 21 to 23 may).
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-XX:+UseSerialGC");
    command.add("-Xmx128m");
    command.add("-XX:TieredStopAtLevel=1");
    // Start-up code runs once: compiling it cost a sim ~60 ms of CPU; hot loops still compile.
    command.add("-XX:CompileThresholdScaling=10");
    command.add("-XX:SharedArchiveFile=" + dataDir.resolve("work").resolve("sim-agent.jsa"));
    command.add("-XX:+AutoCreateSharedArchive");
    command.add("-Xlog:cds=off,cds+dynamic=off");
    command.add("-cp");
    command.add(SimAgentMain.classPath());
    command.add(SimAgentMain.class.getName());
    return command;
  }

  private static String javaExecutable() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
