package dev.cascade.agent.emulator;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the emulator must know of a GPU config to model it when it has no {@code gpgpusim.config} to
 * read: the facts of the built-in table, or of any catalog's usable config.
 *
 * @param name the config's name, {@code SM90_H100}
 * @param arch the architecture, {@code sm_90}
 * @param clockMhz the core clock in MHz
 * @param sms streaming multiprocessors
 * @param limits the SM's limits and the launch latency; null for the architecture's defaults
 * @param memory the memory system; null for the architecture's defaults
 * @param directory the config's tested-cfgs folder; null for a built-in config
 */
public record GpuFacts(
    String name,
    String arch,
    double clockMhz,
    int sms,
    EmulatedGpu.Limits limits,
    GpuMemory memory,
    Path directory) {

  private static final Pattern NAME_ARCH = Pattern.compile("^SM(\\d{1,2})(?=_|$)");

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

  /** Facts of name, architecture, clock and SMs only: the rest are the architecture's. */
  public GpuFacts(String name, String arch, double clockMhz, int sms, Path directory) {
    this(name, arch, clockMhz, sms, null, null, directory);
  }

  /**
   * The architecture a tested-cfgs name claims ({@code SM90_H100} gives {@code sm_90}): one digit d
   * gives sm_d0, two are taken as they are.
   */
  public static Optional<String> archFromName(String name) {
    Matcher matcher = NAME_ARCH.matcher(name);
    if (!matcher.find()) {
      return Optional.empty();
    }
    String digits = matcher.group(1);
    return Optional.of("sm_" + (digits.length() == 1 ? digits + "0" : digits));
  }
}
