package dev.cascade.core;

import dev.cascade.core.internal.accelsim.AccelSimSimulator;
import dev.cascade.core.spi.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The simulators Cascade can read, found with {@link ServiceLoader} like launchers, and chosen by
 * name; the error for a name none has lists every one found. {@code accel-sim} (which Cascade's
 * emulator imitates) is always there.
 */
public final class Simulators {

  /** The name of the built-in simulator. */
  public static final String ACCEL_SIM = AccelSimSimulator.NAME;

  private Simulators() {}

  /** Accel-Sim: its log's statistics blocks, build strings, ends and failures. */
  public static Simulator accelSim() {
    return new AccelSimSimulator();
  }

  /** Every simulator on the class path, in discovery order. */
  public static List<Simulator> discover() {
    List<Simulator> found = new ArrayList<>();
    ServiceLoader.load(Simulator.class, Thread.currentThread().getContextClassLoader())
        .forEach(found::add);
    return found;
  }

  /**
   * The simulator called {@code name}.
   *
   * @throws CascadeException {@code invalid} naming {@code simulator}, listing every simulator
   *     found, when none has that name
   */
  public static Simulator byName(String name) {
    return choose(name, discover());
  }

  static Simulator choose(String name, List<Simulator> candidates) {
    for (Simulator candidate : candidates) {
      if (candidate.name().equals(name)) {
        return candidate;
      }
    }
    throw new CascadeException(
        ErrorCode.INVALID,
        "no simulator called \""
            + name
            + "\"; "
            + (candidates.isEmpty()
                ? "no simulators were found on the class path"
                : "simulators found: "
                    + String.join(", ", candidates.stream().map(Simulator::name).toList())),
        "simulator");
  }
}
