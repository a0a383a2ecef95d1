package dev.cascade.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Every config of a run's results against one baseline config: the run's first entry unless the
 * caller names another. See {@link Speedup} for the spread rule.
 */
public final class Speedups {

  private Speedups() {}

  /**
   * The baseline's name: {@code requested} when given (it must be one of the run's configs), else
   * the first config; null when there are no configs.
   *
   * @throws CascadeException {@code invalid} naming {@code baseline} when {@code requested} is not
   *     a config of the run
   */
  public static String baseline(List<ConfigResult> results, String requested) {
    Objects.requireNonNull(results, "results");
    if (requested == null || requested.isBlank()) {
      return results.isEmpty() ? null : results.get(0).gpuConfig();
    }
    List<String> names = results.stream().map(ConfigResult::gpuConfig).toList();
    if (!names.contains(requested)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "baseline \""
              + requested
              + "\" is not a GPU config of this run; choose one of "
              + String.join(", ", names),
          "baseline");
    }
    return requested;
  }

  /**
   * One {@link ConfigSpeedups} per config, in the results' order, against {@link #baseline}; empty
   * when there are no configs.
   */
  public static List<ConfigSpeedups> against(List<ConfigResult> results, String requested) {
    String name = baseline(results, requested);
    if (name == null) {
      return List.of();
    }
    ConfigResult baseline =
        results.stream().filter(config -> config.gpuConfig().equals(name)).findFirst().get();
    List<ConfigSpeedups> speedups = new ArrayList<>();
    for (ConfigResult config : results) {
      speedups.add(of(baseline, config));
    }
    return List.copyOf(speedups);
  }

  private static ConfigSpeedups of(ConfigResult baseline, ConfigResult config) {
    List<KernelSpeedup> kernels = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (KernelComparison kernel : config.kernels()) {
      baseline
          .kernel(kernel.name(), kernel.instance())
          .ifPresentOrElse(
              base -> kernels.add(KernelSpeedup.between(base, kernel)),
              () -> missing.add(KernelComparison.label(kernel.name(), kernel.instance())));
    }
    List<String> notes = new ArrayList<>();
    if (!missing.isEmpty()) {
      notes.add(
          "no speedup for "
              + String.join(", ", missing)
              + ": baseline \""
              + baseline.gpuConfig()
              + "\" has no succeeded replica of "
              + (missing.size() == 1 ? "it" : "them"));
    }
    return new ConfigSpeedups(
        config.gpuConfig(),
        baseline.gpuConfig(),
        kernels,
        KernelSpeedup.between(baseline.total(), config.total()),
        notes);
  }
}
