package dev.cascade.cli;

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
}
