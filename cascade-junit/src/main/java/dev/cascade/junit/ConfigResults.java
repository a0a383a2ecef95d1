package dev.cascade.junit;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.KernelComparison;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A run's numbers on one GPU config, across its succeeded replicas (the same as {@link
 * ConfigResult}), with kernels found by part of their name: kernel symbols are long, {@code
 * kernel("flash_fwd")} is enough.
 *
 * <pre>{@code
 * ConfigResults h200 = run.config("SM90_H200");
 * assertThat(h200.succeeded()).isEqualTo(3);
 * KernelComparison attention = h200.kernel("flash_fwd");
 * assertThat(attention.cycles().stdev()).isLessThan(0.05 * attention.cycles().mean());
 * }</pre>
 *
 * @param gpuConfig the config's name
 * @param arch its architecture ({@code sm_90}); null when the catalog no longer has it
 * @param clockMhz its core clock; null when unknown, and then simulated times are empty
 * @param replicas how many sims the run asked for on this config
 * @param succeeded how many of them succeeded: the replicas whose numbers count
 * @param kernels per kernel, matched across replicas by name and instance, in log order
 * @param total the whole trace, per replica the sums of its kernels
 * @param notes what to know when reading the numbers
 */
public record ConfigResults(
    String gpuConfig,
    String arch,
    Double clockMhz,
    int replicas,
    int succeeded,
    List<KernelComparison> kernels,
    KernelComparison total,
    List<String> notes) {

  public ConfigResults {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    kernels = List.copyOf(kernels);
    Objects.requireNonNull(total, "total");
    notes = List.copyOf(notes);
  }

  /** The same numbers as core's {@link ConfigResult}. */
  public static ConfigResults of(ConfigResult result) {
    return new ConfigResults(
        result.gpuConfig(),
        result.arch(),
        result.clockMhz(),
        result.replicas(),
        result.succeeded(),
        result.kernels(),
        result.total(),
        result.notes());
  }

  /**
   * The one kernel whose name is {@code name} or contains it.
   *
   * @throws IllegalArgumentException when none does, or several do (a kernel launched more than
   *     once has an instance per launch: use {@link #kernel(String, int)} or {@link
   *     #kernels(String)}); the message lists the kernels there are
   */
  public KernelComparison kernel(String name) {
    List<KernelComparison> exact =
        kernels.stream().filter(kernel -> kernel.name().equals(name)).toList();
    List<KernelComparison> found = exact.isEmpty() ? kernels(name) : exact;
    if (found.size() == 1) {
      return found.getFirst();
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          "no kernel of "
              + gpuConfig
              + " is called or contains \""
              + name
              + "\"; its kernels are:"
              + listing(kernels));
    }
    throw new IllegalArgumentException(
        found.size()
            + " kernels of "
            + gpuConfig
            + " are called or contain \""
            + name
            + "\": give more of the name, or pick one with kernel(name, instance) or all with"
            + " kernels(name):"
            + listing(found));
  }

  /**
   * Instance {@code instance} (from 0, in log order) of the kernel whose name is {@code name} or
   * contains it.
   *
   * @throws IllegalArgumentException when there is no such kernel, or several names match
   */
  public KernelComparison kernel(String name, int instance) {
    List<KernelComparison> found =
        kernels(name).stream().filter(kernel -> kernel.instance() == instance).toList();
    if (found.size() == 1) {
      return found.getFirst();
    }
    throw new IllegalArgumentException(
        (found.isEmpty() ? "no kernel" : found.size() + " kernels")
            + " of "
            + gpuConfig
            + " called or containing \""
            + name
            + "\" with instance "
            + instance
            + "; its kernels are:"
            + listing(kernels));
  }

  /** Every kernel whose name contains {@code name}, each instance, in log order; maybe none. */
  public List<KernelComparison> kernels(String name) {
    Objects.requireNonNull(name, "name");
    return kernels.stream().filter(kernel -> kernel.name().contains(name)).toList();
  }

  static String listing(List<KernelComparison> kernels) {
    if (kernels.isEmpty()) {
      return " none (no replica succeeded)";
    }
    return kernels.stream()
        .map(kernel -> "\n  " + kernel.name() + " (instance " + kernel.instance() + ")")
        .collect(Collectors.joining());
  }
}
