package dev.cascade.agent.emulator;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What the emulator must know of a GPU config to model it when it has no {@code gpgpusim.config} to
 * read: the facts of the built-in table, or of any catalog's usable config.
 *
 * @param name the config's name, {@code SM90_H100}
 * @param arch the architecture, {@code sm_90}
 * @param clockMhz the core clock in MHz
 * @param sms streaming multiprocessors
 * @param directory the config's tested-cfgs folder; null for a built-in config
 */
public record GpuFacts(String name, String arch, double clockMhz, int sms, Path directory) {

  public GpuFacts {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(arch, "arch");
    if (!(clockMhz > 0) || sms <= 0) {
      throw new IllegalArgumentException(
          "GPU config '"
              + name
              + "' needs a positive clock and SM count; got clock_mhz "
              + clockMhz
              + ", sms "
              + sms);
    }
  }
}
