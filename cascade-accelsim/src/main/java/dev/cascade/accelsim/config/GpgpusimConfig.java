package dev.cascade.accelsim.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The options of a GPGPU-Sim / Accel-Sim config file ({@code gpgpusim.config}, {@code
 * trace.config}): one {@code -name value} per line, {@code #} starting a comment. Options are kept
 * in file order with their line numbers, so errors can name {@code file:line}.
 */
public final class GpgpusimConfig {

  /** One occurrence of an option: its value (the rest of the line, trimmed) and where it was. */
  public record Option(String name, String value, int line) {}

  private final String source;
  private final Map<String, List<Option>> options;

  private GpgpusimConfig(String source, Map<String, List<Option>> options) {
    this.source = source;
    this.options = options;
  }

  /** Reads a config file. Unknown options are kept; nothing in the file is rejected here. */
  public static GpgpusimConfig read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /** Parses config text; {@code source} names it in error messages (a path, usually). */
  public static GpgpusimConfig parse(String text, String source) {
    Map<String, List<Option>> options = new LinkedHashMap<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int comment = line.indexOf('#');
      if (comment >= 0) {
        line = line.substring(0, comment);
      }
      line = line.strip();
      if (!line.startsWith("-") || line.length() == 1) {
        continue;
      }
      int space = indexOfWhitespace(line);
      String name = space < 0 ? line.substring(1) : line.substring(1, space);
      String value = space < 0 ? "" : line.substring(space).strip();
      options.computeIfAbsent(name, n -> new ArrayList<>()).add(new Option(name, value, i + 1));
    }
    options.replaceAll((name, list) -> List.copyOf(list));
    return new GpgpusimConfig(source, Collections.unmodifiableMap(options));
  }

  /**
   * {@code text} with options set to new values, as GPGPU-Sim would read them: every line that sets
   * one of {@code values} (name without the dash) is written again as {@code -name value}, with its
   * old value kept in a trailing comment. GPGPU-Sim reads a config's options in order and the last
   * setting of an option wins, so changing each line in place (rather than adding one at the end)
   * gives the same value to the simulator and to readers that take the first setting, as this class
   * does. Options {@code text} does not set are left out; other lines are kept as they are.
   */
  public static String withValues(String text, Map<String, String> values) {
    String[] lines = text.split("\r?\n", -1);
    StringBuilder out = new StringBuilder(text.length() + 64 * values.size());
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String option = line;
      int comment = option.indexOf('#');
      if (comment >= 0) {
        option = option.substring(0, comment);
      }
      option = option.strip();
      String replaced = null;
      if (option.startsWith("-") && option.length() > 1) {
        int space = indexOfWhitespace(option);
        String name = space < 0 ? option.substring(1) : option.substring(1, space);
        String value = values.get(name);
        if (value != null) {
          String old = space < 0 ? "" : option.substring(space).strip();
          replaced = "-" + name + " " + value + " # set by a Cascade variant; was: " + old;
        }
      }
      out.append(replaced != null ? replaced : line);
      if (i < lines.length - 1) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** Where the options came from. */
  public String source() {
    return source;
  }

  /** Every option name set, in the order first seen, without the leading {@code -}. */
  public Set<String> names() {
    return options.keySet();
  }

  /** The first occurrence of an option (name without the leading {@code -}). */
  public Optional<Option> first(String name) {
    List<Option> found = options.get(stripDash(name));
    return found == null ? Optional.empty() : Optional.of(found.getFirst());
  }

  /** The first value of an option, as written. */
  public Optional<String> value(String name) {
    return first(name).map(Option::value);
  }

  /** Every occurrence of an option, in file order. */
  public List<Option> all(String name) {
    return options.getOrDefault(stripDash(name), List.of());
  }

  /** An integer option; absent when not set, an error naming file:line when not a number. */
  public OptionalInt intValue(String name) {
    Optional<Option> option = first(name);
    if (option.isEmpty()) {
      return OptionalInt.empty();
    }
    String value = option.get().value();
    try {
      return OptionalInt.of(Integer.parseInt(value));
    } catch (NumberFormatException e) {
      throw formatError(option.get(), "is not a whole number");
    }
  }

  /**
   * The core clock in MHz: the first field of the first {@code -gpgpu_clock_domains} line ({@code
   * 1980:3960:3960:3106} gives 1980.0). Commented-out lines are not options.
   */
  public OptionalDouble coreClockMhz() {
    Optional<Option> option = first("gpgpu_clock_domains");
    if (option.isEmpty()) {
      return OptionalDouble.empty();
    }
    String first = option.get().value().split(":", 2)[0].strip();
    try {
      double mhz = Double.parseDouble(first);
      if (!(mhz > 0) || Double.isInfinite(mhz)) {
        throw formatError(option.get(), "has a core clock that is not a positive number");
      }
      return OptionalDouble.of(mhz);
    } catch (NumberFormatException e) {
      throw formatError(option.get(), "does not start with a core clock in MHz");
    }
  }

  /** {@code -gpgpu_compute_capability_major} and {@code _minor}, when both are set. */
  public Optional<ComputeCapability> computeCapability() {
    OptionalInt major = intValue("gpgpu_compute_capability_major");
    OptionalInt minor = intValue("gpgpu_compute_capability_minor");
    if (major.isEmpty() || minor.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ComputeCapability(major.getAsInt(), minor.getAsInt()));
    } catch (IllegalArgumentException e) {
      throw formatError(first("gpgpu_compute_capability_major").orElseThrow(), e.getMessage());
    }
  }

  /** Streaming multiprocessors: {@code -gpgpu_n_clusters} x {@code -gpgpu_n_cores_per_cluster}. */
  public OptionalInt smCount() {
    OptionalInt clusters = intValue("gpgpu_n_clusters");
    if (clusters.isEmpty()) {
      return OptionalInt.empty();
    }
    int coresPerCluster = intValue("gpgpu_n_cores_per_cluster").orElse(1);
    long sms = (long) clusters.getAsInt() * coresPerCluster;
    if (sms <= 0 || sms > Integer.MAX_VALUE) {
      throw formatError(first("gpgpu_n_clusters").orElseThrow(), "gives no SMs (" + sms + ")");
    }
    return OptionalInt.of((int) sms);
  }

  /**
   * The DRAM clock in MHz: the fourth field of {@code -gpgpu_clock_domains} ({@code
   * 1980:3960:3960:3106} gives 3106.0), the clock of the DRAM command bus.
   */
  public OptionalDouble dramClockMhz() {
    Optional<Option> option = first("gpgpu_clock_domains");
    if (option.isEmpty()) {
      return OptionalDouble.empty();
    }
    String[] fields = option.get().value().split(":");
    if (fields.length < 4) {
      throw formatError(option.get(), "has no fourth (DRAM) clock: expected core:icnt:l2:dram");
    }
    try {
      double mhz = Double.parseDouble(fields[3].strip());
      if (!(mhz > 0) || Double.isInfinite(mhz)) {
        throw formatError(option.get(), "has a DRAM clock that is not a positive number");
      }
      return OptionalDouble.of(mhz);
    } catch (NumberFormatException e) {
      throw formatError(option.get(), "has a DRAM clock that is not a number in MHz");
    }
  }

  /**
   * The whole L2 in bytes: {@code -gpgpu_cache:dl2}'s sets x line size x ways ({@code
   * S:128:128:16,...}), which GPGPU-Sim gives each memory sub-partition, times {@code -gpgpu_n_mem}
   * x {@code -gpgpu_n_sub_partition_per_mchannel}. Absent when the config sets no L2 or no
   * channels.
   */
  public OptionalLong l2CacheBytes() {
    Optional<Option> option = first("gpgpu_cache:dl2");
    OptionalInt channels = intValue("gpgpu_n_mem");
    if (option.isEmpty() || channels.isEmpty()) {
      return OptionalLong.empty();
    }
    String[] geometry = option.get().value().split(",", 2)[0].split(":");
    if (geometry.length < 4) {
      throw formatError(option.get(), "does not start with <type>:<sets>:<line bytes>:<ways>");
    }
    try {
      long perSubPartition =
          Long.parseLong(geometry[1].strip())
              * Long.parseLong(geometry[2].strip())
              * Long.parseLong(geometry[3].strip());
      int subPartitions = intValue("gpgpu_n_sub_partition_per_mchannel").orElse(1);
      return OptionalLong.of(perSubPartition * channels.getAsInt() * subPartitions);
    } catch (NumberFormatException e) {
      throw formatError(option.get(), "has sets, line size or ways that are not whole numbers");
    }
  }

  private ConfigFormatException formatError(Option option, String problem) {
    return new ConfigFormatException(
        source
            + ":"
            + option.line()
            + ": -"
            + option.name()
            + " \""
            + option.value()
            + "\" "
            + problem);
  }

  private static String stripDash(String name) {
    return name.startsWith("-") ? name.substring(1) : name;
  }

  private static int indexOfWhitespace(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (Character.isWhitespace(line.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
