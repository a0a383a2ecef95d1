package dev.cascade.core.internal.catalog;

import dev.cascade.accelsim.config.ComputeCapability;
import dev.cascade.accelsim.config.ConfigFormatException;
import dev.cascade.accelsim.config.GpgpusimConfig;
import dev.cascade.agent.emulator.GpuFacts;
import dev.cascade.core.GpuConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Turns one tested-cfgs directory into a {@link GpuConfig}: the architecture from the name, checked
 * against the compute capability in {@code gpgpusim.config}; the clock and SM count from the file;
 * its {@code trace.config} beside that file, else in the folder where Accel-Sim keeps them apart.
 * Never throws: a directory it cannot read becomes an unusable config with the reason.
 */
final class ConfigDirectoryReader {

  // SM90_H100 -> "90", SM7_QV100 -> "7". The digits end at the first non-digit.

  private ConfigDirectoryReader() {}

  /**
   * @param traceConfigs where Accel-Sim keeps each config's {@code trace.config} apart ({@code
   *     <traceConfigs>/<name>/trace.config}), used when the directory has none; null for none
   */
  static GpuConfig read(Path directory, Path traceConfigs) {
    String name = directory.getFileName().toString();
    Path configFile = directory.resolve("gpgpusim.config");
    GpgpusimConfig config;
    try {
      config = GpgpusimConfig.read(configFile);
    } catch (NoSuchFileException e) {
      return GpuConfig.unusable(name, "no gpgpusim.config in " + directory, directory);
    } catch (IOException | RuntimeException e) {
      return GpuConfig.unusable(name, "cannot read " + configFile + ": " + describe(e), directory);
    }
    try {
      Optional<Path> traceConfig = traceConfigOf(directory, traceConfigs);
      String missing =
          "no trace.config"
              + (traceConfigs == null
                  ? ""
                  : " (neither beside gpgpusim.config nor in " + traceConfigs.resolve(name) + ")")
              + ": a real accel-sim.out needs one for trace-driven runs";
      return fromConfig(
          name,
          config,
          directory,
          traceConfig.isPresent(),
          traceConfig.orElse(null),
          missing,
          true);
    } catch (ConfigFormatException e) {
      return GpuConfig.unusable(name, e.getMessage(), directory);
    }
  }

  /**
   * The config's {@code trace.config}: beside its {@code gpgpusim.config}, else {@code
   * <traceConfigs>/<name>/trace.config}; empty when neither is a file.
   */
  static Optional<Path> traceConfigOf(Path directory, Path traceConfigs) {
    Path beside = directory.resolve("trace.config");
    if (Files.isRegularFile(beside)) {
      return Optional.of(beside);
    }
    if (traceConfigs == null) {
      return Optional.empty();
    }
    Path apart = traceConfigs.resolve(directory.getFileName().toString()).resolve("trace.config");
    return Files.isRegularFile(apart) ? Optional.of(apart) : Optional.empty();
  }

  /**
   * A config from its options: {@code name} gives the architecture (or the file's compute
   * capability when it has none, or when {@code nameWins} is false and the file sets one).
   *
   * @param traceConfig where its {@code trace.config} is; null when it has none, or none on disk
   * @param noTraceConfig the warning when it has none
   */
  static GpuConfig fromConfig(
      String name,
      GpgpusimConfig config,
      Path directory,
      boolean hasTraceConfig,
      Path traceConfig,
      String noTraceConfig,
      boolean nameWins) {
    List<String> warnings = new ArrayList<>();
    Optional<String> nameArch = GpuFacts.archFromName(name);
    Optional<ComputeCapability> capability = config.computeCapability();
    String arch;
    if (!nameWins && capability.isPresent()) {
      arch = capability.get().arch();
    } else if (nameArch.isPresent()) {
      arch = nameArch.get();
      if (capability.isPresent() && !capability.get().arch().equals(arch)) {
        warnings.add(
            "the name says "
                + arch
                + " but gpgpusim.config sets compute capability "
                + capability.get()
                + " ("
                + capability.get().arch()
                + "); using "
                + arch
                + " from the name");
      }
    } else if (capability.isPresent()) {
      arch = capability.get().arch();
      warnings.add(
          "the name has no SM<nn>_ prefix; arch "
              + arch
              + " comes from gpgpusim.config's compute capability "
              + capability.get());
    } else {
      return GpuConfig.unusable(
          name,
          "no architecture: the name has no SM<nn>_ prefix and "
              + config.source()
              + " sets no -gpgpu_compute_capability_major/minor",
          directory);
    }

    OptionalDouble clock = config.coreClockMhz();
    if (clock.isEmpty()) {
      return GpuConfig.unusable(
          name, config.source() + " sets no -gpgpu_clock_domains, so no core clock", directory);
    }
    OptionalInt sms = config.smCount();
    if (sms.isEmpty()) {
      return GpuConfig.unusable(
          name, config.source() + " sets no -gpgpu_n_clusters, so no SM count", directory);
    }
    if (!hasTraceConfig) {
      warnings.add(noTraceConfig);
    }
    return new GpuConfig(
        name,
        arch,
        clock.getAsDouble(),
        sms.getAsInt(),
        hasTraceConfig,
        true,
        null,
        warnings,
        directory,
        traceConfig);
  }

  private static String describe(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
