package dev.cascade.core.internal.http;

import dev.cascade.core.SimCommands;
import io.javalin.config.RoutesConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code GET /api/simulator}: what this server's sims run and at what pace, so the new-run form can
 * say what a run will take before it is launched (the emulator's pace, or that sims run the real
 * Accel-Sim).
 */
final class SimulatorRoutes {

  private final Map<String, Object> description;
  private final Auth auth;

  SimulatorRoutes(String simulator, List<String> simCommand, Auth auth) {
    this.description = describe(simulator, simCommand);
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/simulator", auth.viewer(ctx -> Json.send(ctx, 200, description)));
  }

  /**
   * The simulator's name, what the sims run ({@code emulator}, {@code accel-sim} or {@code
   * command}), the emulator's simulated cycles per second (null for the others), the seconds a demo
   * sim takes at that pace (null when unknown), and a sentence saying so.
   */
  static Map<String, Object> describe(String simulator, List<String> command) {
    OptionalDouble speed = SimCommands.emulatorSpeed(command);
    String runs;
    String note;
    Double demoSimSeconds = null;
    if (speed.isPresent() && speed.getAsDouble() == 0) {
      runs = "emulator";
      note = "Sims run Cascade's emulator of Accel-Sim as fast as it can.";
      demoSimSeconds = 0.0;
    } else if (speed.isPresent()) {
      runs = "emulator";
      demoSimSeconds = SimCommands.DEMO_SIM_CYCLES / speed.getAsDouble();
      note =
          String.format(
              Locale.ROOT,
              "The emulator simulates about %,.0f cycles per second: a sim of the demo trace"
                  + " (about %,d cycles) takes about %.0f s. CASCADE_EMULATE_SPEED=0 on the server"
                  + " runs sims as fast as they can.",
              speed.getAsDouble(),
              SimCommands.DEMO_SIM_CYCLES,
              demoSimSeconds);
    } else if (SimCommands.runsAccelSim(command)) {
      runs = "accel-sim";
      note =
          "Sims run the real Accel-Sim: each takes minutes to hours, by the trace and the config.";
    } else {
      runs = "command";
      note =
          "Sims run the server's own command (CASCADE_SIM_CMD): "
              + (command.isEmpty() ? "none" : command.getFirst())
              + "; how long a sim takes depends on it.";
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", simulator);
    body.put("runs", runs);
    body.put("cycles_per_second", speed.isPresent() ? speed.getAsDouble() : null);
    body.put("demo_sim_seconds", demoSimSeconds);
    body.put("note", note);
    return body;
  }
}
