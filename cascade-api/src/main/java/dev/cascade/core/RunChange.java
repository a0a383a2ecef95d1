package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * One run against the baseline run of a {@link RunComparison}: the configs both have, matched by
 * name, and those only one of them has.
 *
 * @param runId the run compared with the baseline
 * @param configs per config both runs have, in the baseline's entry order
 * @param onlyInBaseline configs of the baseline run this run lacks
 * @param onlyInRun configs of this run the baseline lacks
 */
public record RunChange(
    String runId, List<ConfigChange> configs, List<String> onlyInBaseline, List<String> onlyInRun) {

  public RunChange {
    Objects.requireNonNull(runId, "runId");
    configs = List.copyOf(configs);
    onlyInBaseline = List.copyOf(onlyInBaseline);
    onlyInRun = List.copyOf(onlyInRun);
  }

  /** The change of this config, null when either run lacks it. */
  public ConfigChange config(String gpuConfig) {
    return configs.stream()
        .filter(config -> config.gpuConfig().equals(gpuConfig))
        .findFirst()
        .orElse(null);
  }
}
