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
 * @param hasTraceConfig whether the config has a {@code trace.config}: beside its {@code
 *     gpgpusim.config}, or where Accel-Sim keeps it apart ({@code traceConfig})
 * @param usable whether sims can run on it
 * @param reason why it is not usable; null when usable
 * @param warnings things worth knowing that do not stop it being used
 * @param directory the config's folder; null for built-in configs
 * @param traceConfig the config's {@code trace.config}: {@code directory/trace.config}, or, in an
 *     Accel-Sim build, {@code gpu-simulator/configs/tested-cfgs/<name>/trace.config}, where
 *     Accel-Sim keeps it apart from GPGPU-Sim's folder; null when it has none, for built-in
 *     configs, and for configs read from a server (the file is on the server's machine)
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
    Path directory,
    Path traceConfig) {

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
    if (traceConfig != null && !hasTraceConfig) {
      throw new IllegalArgumentException(
          "GPU config " + name + " names its trace.config \"" + traceConfig + "\" but has none");
    }
  }

  /** A config sims cannot run on, listed with the reason. */
  public static GpuConfig unusable(String name, String reason, Path directory) {
    return new GpuConfig(name, null, 0, 0, false, false, reason, List.of(), directory, null);
  }

  public Optional<Path> directoryIfAny() {
    return Optional.ofNullable(directory);
  }

  /**
   * True when this config's {@code trace.config} is not in its own folder but where Accel-Sim keeps
   * it apart: a sim then gets a folder holding both (see {@code CASCADE_GPU_CONFIG_DIR}).
   */
  public boolean traceConfigApart() {
    return traceConfig != null
        && directory != null
        && !traceConfig.equals(directory.resolve("trace.config"));
  }
}
