package dev.cascade.core;

import dev.cascade.agent.SimAgentMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The command each sim runs ({@code CASCADE_SIM_CMD}) when the user does not give one: Cascade's
 * lean sim agent running a real {@code accel-sim.out} when {@code CASCADE_ACCELSIM_DIR} points at a
 * built Accel-Sim, else the agent running Cascade's emulator in its own JVM.
 */
public final class SimCommands {

  /** Where a built Accel-Sim keeps its simulator, under {@code CASCADE_ACCELSIM_DIR}. */
  public static final String ACCELSIM_BINARY = "gpu-simulator/bin/release/accel-sim.out";

  /**
   * Emulated cycles per second when {@code CASCADE_EMULATE_SPEED} is unset: a demo run is ~15 s.
   */
  public static final String DEMO_SPEED = "2500";

  /** What was chosen, and why, for the start-up log. */
  public record Choice(List<String> command, String description) {
    public Choice {
      command = List.copyOf(command);
    }
  }

  private SimCommands() {}

  /**
   * {@code CASCADE_SIM_CMD} (split on white space) when set; else the agent with Accel-Sim when
   * {@code CASCADE_ACCELSIM_DIR} holds a built one; else the agent with the emulator.
   */
  public static Choice choose(Map<String, String> environment, Path dataDir) {
    String given = environment.get("CASCADE_SIM_CMD");
    if (given != null && !given.isBlank()) {
      return new Choice(
          Arrays.asList(given.strip().split("\\s+")), "CASCADE_SIM_CMD: " + given.strip());
    }
    Optional<Path> accelSim = accelSim(environment);
    if (accelSim.isPresent()) {
      List<String> command = agent(dataDir);
      command.addAll(
          List.of(
              "--",
              accelSim.get().toString(),
              "-trace",
              "${CASCADE_TRACE_DIR}/traces/kernelslist.g",
              "-config",
              "${CASCADE_GPU_CONFIG_DIR}/gpgpusim.config",
              "-config",
              "${CASCADE_GPU_CONFIG_DIR}/trace.config"));
      return new Choice(command, "Accel-Sim at " + accelSim.get() + ", through the sim agent");
    }
    List<String> command = agent(dataDir);
    command.add("--emulate");
    // Spelled out, so the sims get it even when the environment given here is not the process's.
    String speed = environment.get("CASCADE_EMULATE_SPEED");
    command.addAll(
        List.of("--speed", speed == null || speed.isBlank() ? DEMO_SPEED : speed.strip()));
    String why =
        environment.containsKey("CASCADE_ACCELSIM_DIR")
            ? "the emulator (no " + ACCELSIM_BINARY + " under CASCADE_ACCELSIM_DIR)"
            : "the emulator (set CASCADE_ACCELSIM_DIR to a built Accel-Sim to run the real one)";
    return new Choice(command, why);
  }

  /** The built {@code accel-sim.out} under {@code CASCADE_ACCELSIM_DIR}, when there is one. */
  static Optional<Path> accelSim(Map<String, String> environment) {
    String dir = environment.get("CASCADE_ACCELSIM_DIR");
    if (dir == null || dir.isBlank()) {
      return Optional.empty();
    }
    Path binary = Path.of(dir).resolve(ACCELSIM_BINARY);
    return Files.isExecutable(binary) ? Optional.of(binary) : Optional.empty();
  }

  /**
   * The sim agent's JVM: this Java, a class path of only cascade-agent and its dependencies ({@link
   * SimAgentMain#classPath}), the serial collector, a small heap, the quick compiler, and a
   * class-data-sharing archive in the data dir that the first agent creates and later ones reuse.
   */
  static List<String> agent(Path dataDir) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable());
    command.add("-XX:+UseSerialGC");
    command.add("-Xmx128m");
    command.add("-XX:TieredStopAtLevel=1");
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
