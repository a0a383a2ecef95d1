package dev.cascade.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * @param measures the spreads of the measures a request asked for beyond the four defaults, by
 *     {@link Measure#id()} in request order; a spread is empty where no replica had the statistic
 */
public record KernelComparison(
    String name,
    int instance,
    List<Integer> replicas,
    Spread cycles,
    Spread instructions,
    Spread ipc,
    Spread simulatedTimeUs,
    Map<String, Spread> measures) {

  /** The comparison of the four default measures alone. */
  public KernelComparison(
      String name,
      int instance,
      List<Integer> replicas,
      Spread cycles,
      Spread instructions,
      Spread ipc,
      Spread simulatedTimeUs) {
    this(name, instance, replicas, cycles, instructions, ipc, simulatedTimeUs, Map.of());
  }

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
    Objects.requireNonNull(measures, "measures");
    Map<String, Spread> copy = new LinkedHashMap<>();
    measures.forEach(
        (id, spread) -> {
          Objects.requireNonNull(spread, () -> "spread of measure \"" + id + "\"");
          if (Measures.findDefault(id).isPresent()) {
            throw new IllegalArgumentException(
                "measure \"" + id + "\" of kernel \"" + name + "\" is a default: it has its field");
          }
          copy.put(Objects.requireNonNull(id, "measure id"), spread);
        });
    measures = Collections.unmodifiableMap(copy);
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

  /**
   * The spread of the measure with this id: a default's field, or one of {@link #measures()}; empty
   * when this comparison does not have it.
   */
  public Spread spread(String measureId) {
    return switch (measureId) {
      case "cycles" -> cycles;
      case "instructions" -> instructions;
      case "ipc" -> ipc;
      case "simulated_time_us" -> simulatedTimeUs;
      default -> measures.getOrDefault(measureId, Spread.empty());
    };
  }

  /** How many replicas had the kernel. */
  public int n() {
    return replicas.size();
  }
}
