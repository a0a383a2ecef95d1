package dev.cascade.core;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A run's numbers on one GPU config, across the config's replicas: per kernel and for the whole
 * trace, the spread of cycles, instructions, IPC and simulated time. Only succeeded replicas count,
 * except that while the run is active a kernel's row also counts the unfinished replicas that have
 * finished it ({@link PartialResults}); a config none of whose replicas succeeded still has a
 * result, with empty spreads.
 *
 * @param gpuConfig the config's name, as the run's entry gave it
 * @param arch the config's architecture ({@code sm_90}); null when the catalog no longer has it
 * @param clockMhz the core clock that turns cycles into simulated time; null when unknown (no
 *     longer in the catalog), and then every simulated time is empty and {@code notes} says why
 * @param replicas how many sims the run asked for on this config
 * @param succeeded how many of them succeeded: the replicas whose numbers count
 * @param kernels per kernel, matched across replicas by {@code (name, instance)}, in log order (the
 *     order of the first replica that had each)
 * @param total the whole trace: per replica the sums of its kernels' cycles and instructions, IPC
 *     as their ratio, and simulated time from the summed cycles; named {@link
 *     KernelComparison#TOTAL}
 * @param notes what to know when reading the numbers, for people (a missing clock, a replica whose
 *     log did not end normally)
 * @param base the catalog config the entry is based on: {@code gpuConfig} itself, unless the entry
 *     is a variant or has a label
 * @param params the options the variant sets over {@code base} ({@code -gpgpu_n_clusters} to {@code
 *     54}), in the entry's order: what differs from the base; empty for the config as it is
 * @param sampling for a sampled entry, how its whole-trace numbers were estimated ({@code total}
 *     then holds each replica's estimate); null when the entry simulated what it names
 */
public record ConfigResult(
    String gpuConfig,
    String arch,
    Double clockMhz,
    int replicas,
    int succeeded,
    List<KernelComparison> kernels,
    KernelComparison total,
    List<String> notes,
    String base,
    java.util.Map<String, String> params,
    SampledEstimate sampling) {

  /** A result of a catalog config as it is, not sampled: {@code base} is {@code gpuConfig}. */
  public ConfigResult(
      String gpuConfig,
      String arch,
      Double clockMhz,
      int replicas,
      int succeeded,
      List<KernelComparison> kernels,
      KernelComparison total,
      List<String> notes) {
    this(
        gpuConfig,
        arch,
        clockMhz,
        replicas,
        succeeded,
        kernels,
        total,
        notes,
        gpuConfig,
        java.util.Map.of(),
        null);
  }

  public ConfigResult {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    base = base == null ? gpuConfig : base;
    params =
        params == null
            ? java.util.Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    if (clockMhz != null && !(clockMhz > 0 && Double.isFinite(clockMhz))) {
      throw new IllegalArgumentException(
          "clock of \"" + gpuConfig + "\" must be a positive number of MHz; got " + clockMhz);
    }
    if (succeeded < 0 || succeeded > replicas) {
      throw new IllegalArgumentException(
          "\""
              + gpuConfig
              + "\" cannot have "
              + succeeded
              + " succeeded replicas out of "
              + replicas);
    }
    kernels = List.copyOf(kernels);
    Objects.requireNonNull(total, "total");
    notes = List.copyOf(notes);
    if (total.n() != succeeded) {
      throw new IllegalArgumentException(
          "the total of \""
              + gpuConfig
              + "\" must cover its "
              + succeeded
              + " succeeded replicas; got "
              + total.n());
    }
    Set<String> keys = new HashSet<>();
    for (KernelComparison kernel : kernels) {
      if (!keys.add(kernel.instance() + " " + kernel.name())) {
        throw new IllegalArgumentException(
            "\""
                + gpuConfig
                + "\" lists kernel \""
                + kernel.name()
                + "\" instance "
                + kernel.instance()
                + " twice");
      }
    }
  }

  /** This result with {@code total} and {@code notes} replaced, estimated as {@code sampling}. */
  public ConfigResult withSampling(
      KernelComparison total, List<String> notes, SampledEstimate sampling) {
    return new ConfigResult(
        gpuConfig, arch, clockMhz, replicas, succeeded, kernels, total, notes, base, params,
        sampling);
  }

  /** The kernel with this name and instance, if any succeeded replica finished it. */
  public Optional<KernelComparison> kernel(String name, int instance) {
    return kernels.stream()
        .filter(kernel -> kernel.name().equals(name) && kernel.instance() == instance)
        .findFirst();
  }

  /** This result as the variant {@code params} of {@code base}. */
  public ConfigResult withVariant(String base, java.util.Map<String, String> params) {
    return new ConfigResult(
        gpuConfig, arch, clockMhz, replicas, succeeded, kernels, total, notes, base, params,
        sampling);
  }
}
