package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * One kernel of a run's trace on one GPU config, across the config's succeeded replicas; or, as
 * {@link ConfigResult#total()}, the whole trace. Kernels are matched across replicas by {@code
 * (name, instance)}: the n-th block of a kernel name in one replica's log is compared with the n-th
 * of the same name in the others. A kernel some replicas did not finish just has a smaller {@code
 * n}.
 *
 * @param name the kernel's name; {@link #TOTAL} for the whole trace
 * @param instance how many kernels of the same name came before it in the log, from 0 (0 for the
 *     total)
 * @param replicas the replicas that had the kernel, ascending: the order of every spread's values
 * @param cycles the kernel's own simulated cycles
 * @param instructions the kernel's own instructions
 * @param ipc instructions per cycle, each replica's {@code instructions / cycles}
 * @param simulatedTimeUs simulated time in microseconds, {@code cycles / clock_mhz}; empty when the
 *     config's core clock is unknown (see {@link ConfigResult#notes()})
 */
public record KernelComparison(
    String name,
    int instance,
    List<Integer> replicas,
    Spread cycles,
    Spread instructions,
    Spread ipc,
    Spread simulatedTimeUs) {

  /** The name of the whole trace's row: no kernel symbol can have it. */
  public static final String TOTAL = "(all kernels)";

  public KernelComparison {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a kernel's name cannot be blank");
    }
    if (instance < 0) {
      throw new IllegalArgumentException(
          "instance of kernel \"" + name + "\" must be 0 or more; got " + instance);
    }
    replicas = List.copyOf(replicas);
    for (int i = 0; i < replicas.size(); i++) {
      if (replicas.get(i) < 0 || (i > 0 && replicas.get(i) <= replicas.get(i - 1))) {
        throw new IllegalArgumentException(
            "replicas of kernel \"" + name + "\" must ascend from 0 or more; got " + replicas);
      }
    }
    Objects.requireNonNull(cycles, "cycles");
    Objects.requireNonNull(instructions, "instructions");
    Objects.requireNonNull(ipc, "ipc");
    Objects.requireNonNull(simulatedTimeUs, "simulatedTimeUs");
    int n = replicas.size();
    if (cycles.n() != n || instructions.n() != n || ipc.n() != n) {
      throw new IllegalArgumentException(
          "kernel \""
              + name
              + "\" has "
              + n
              + " replicas but spreads of "
              + cycles.n()
              + ", "
              + instructions.n()
              + " and "
              + ipc.n()
              + " values");
    }
    if (!simulatedTimeUs.isEmpty() && simulatedTimeUs.n() != n) {
      throw new IllegalArgumentException(
          "kernel \""
              + name
              + "\" has "
              + n
              + " replicas but a simulated time of "
              + simulatedTimeUs.n()
              + " values; it must have all of them or none");
    }
  }

  /**
   * The one name of a kernel's launch, used by the CLI, the UI, the CSV and the JSON alike: the
   * name for its first launch, {@code name#k} for the launch with instance {@code k} (the k+1-th of
   * that name in the log), so {@code #k} always equals the {@code instance} field beside it.
   */
  public static String label(String name, int instance) {
    return instance == 0 ? name : name + "#" + instance;
  }

  /** This kernel's {@link #label(String, int)}. */
  public String label() {
    return label(name, instance);
  }

  /** How many replicas had the kernel. */
  public int n() {
    return replicas.size();
  }
}
