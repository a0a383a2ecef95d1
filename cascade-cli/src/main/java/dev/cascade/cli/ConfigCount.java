package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunEntry;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * One {@code CONFIG:COUNT} argument of {@code cascade runs create}: a GPU config name and how many
 * replicas of it to run. Only the form is checked here (a usage error, exit 2, before any request);
 * whether the config exists and the count is in range is the server's to say, naming the field.
 *
 * @param gpuConfig the GPU config name, such as {@code SM90_H100}
 * @param count the replicas; a bare {@code CONFIG} means 1
 */
record ConfigCount(String gpuConfig, int count) {

  /** Reads {@code SM90_H100:4}, or {@code SM90_H100} for one replica. */
  static ConfigCount parse(String text) {
    String value = text.strip();
    int colon = value.lastIndexOf(':');
    String name = colon < 0 ? value : value.substring(0, colon).strip();
    if (name.isEmpty()) {
      throw new IllegalArgumentException(
          "\"" + text + "\" names no GPU config; write CONFIG:COUNT, such as SM90_H100:2");
    }
    if (colon < 0) {
      return new ConfigCount(name, 1);
    }
    String number = value.substring(colon + 1).strip();
    if (number.isEmpty()
        || number.length() > 9
        || !number.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException(
          "the count in \""
              + text
              + "\" must be a whole number of replicas; write CONFIG:COUNT, such as "
              + name
              + ":2");
    }
    return new ConfigCount(name, Integer.parseInt(number));
  }

  /** Lets picocli turn a malformed argument into a usage error that quotes it. */
  static final class Converter implements ITypeConverter<ConfigCount> {
    @Override
    public ConfigCount convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /**
   * The arguments as a run's entries. A count out of range is refused here in the server's words
   * (field {@code entries[i].count}), since a {@link RunEntry} cannot hold it.
   */
  static List<RunEntry> runEntries(List<ConfigCount> counts) {
    List<RunEntry> entries = new ArrayList<>(counts.size());
    for (int i = 0; i < counts.size(); i++) {
      ConfigCount count = counts.get(i);
      if (count.count() < 1 || count.count() > RunEntry.MAX_COUNT) {
        String field = "entries[" + i + "].count";
        throw new CascadeException(
            ErrorCode.INVALID, RunEntry.countProblem(count.gpuConfig(), count.count()), field);
      }
      entries.add(new RunEntry(count.gpuConfig(), count.count()));
    }
    return entries;
  }

  /** {@code [SM90_H100 x2, SM90_H200 x1]}. */
  static String text(List<ConfigCount> counts) {
    return counts.stream().map(e -> e.gpuConfig() + " x" + e.count()).toList().toString();
  }
}
