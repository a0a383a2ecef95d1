package dev.cascade.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One Accel-Sim GPU config: a directory under tested-cfgs such as {@code SM90_H100}, or an entry of
 * the built-in catalog the emulator uses when no Accel-Sim is installed.
 *
 * @param arch the architecture, {@code sm_90}; null only when unusable and unknown
 * @param clockMhz the core clock in MHz, from the first value of {@code -gpgpu_clock_domains}
 * @param sms streaming multiprocessors: {@code -gpgpu_n_clusters} x {@code
 *     -gpgpu_n_cores_per_cluster}
 * @param hasTraceConfig whether a {@code trace.config} sits beside {@code gpgpusim.config}
 * @param usable whether sims can run on it
 * @param reason why it is not usable; null when usable
 * @param warnings things worth knowing that do not stop it being used
 * @param directory the config's folder; null for built-in configs
 */
public record GpuConfig(
    String name,
    String arch,
    double clockMhz,
    int sms,
    boolean hasTraceConfig,
    boolean usable,
    String reason,
    List<String> warnings,
    Path directory) {

  public GpuConfig {
    Objects.requireNonNull(name, "name");
    warnings = List.copyOf(warnings);
    if (usable && (arch == null || clockMhz <= 0 || sms <= 0)) {
      throw new IllegalArgumentException(
          "GPU config " + name + " cannot be usable without an arch, a clock and SMs");
    }
    if (!usable && reason == null) {
      throw new IllegalArgumentException("GPU config " + name + " is unusable but has no reason");
    }
  }

  /** A config sims cannot run on, listed with the reason. */
  public static GpuConfig unusable(String name, String reason, Path directory) {
    return new GpuConfig(name, null, 0, 0, false, false, reason, List.of(), directory);
  }

  public Optional<Path> directoryIfAny() {
    return Optional.ofNullable(directory);
  }
}
