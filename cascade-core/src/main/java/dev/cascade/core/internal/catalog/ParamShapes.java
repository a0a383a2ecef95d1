package dev.cascade.core.internal.catalog;

import dev.cascade.accelsim.config.CacheSpec;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a variant's value has the shape its option needs, judged from the option and the base
 * config's own value: a cache spec ({@code -gpgpu_cache:dl2}) must read as one ({@link CacheSpec});
 * the clock domains are four clocks in MHz; an option whose base value is a whole number takes a
 * whole number, and a decimal one a number. Anything else is taken as given: the simulator's own
 * option reader is the judge of the rest.
 */
final class ParamShapes {

  private static final Pattern WHOLE = Pattern.compile("-?\\d+");
  private static final Pattern NUMBER = Pattern.compile("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

  private ParamShapes() {}

  /** Why {@code value} cannot be option {@code name} (without the dash); empty when it can. */
  static Optional<String> problem(String name, String value, String baseValue) {
    if (isCacheOption(name) && (CacheSpec.tryParse(baseValue).isPresent() || baseValue.isEmpty())) {
      try {
        CacheSpec.parse(value);
        return Optional.empty();
      } catch (IllegalArgumentException e) {
        return Optional.of(e.getMessage());
      }
    }
    if (name.equals("gpgpu_clock_domains")) {
      String[] clocks = value.split(":", -1);
      if (clocks.length != 4) {
        return Optional.of(
            "\""
                + value
                + "\" is not four clocks in MHz; the format is"
                + " <core>:<interconnect>:<L2>:<DRAM>, such as 1410:1410:1410:1215");
      }
      for (String clock : clocks) {
        if (!NUMBER.matcher(clock).matches() || !(Double.parseDouble(clock) > 0)) {
          return Optional.of(
              "\""
                  + value
                  + "\" has \""
                  + clock
                  + "\", not a positive number of MHz; the format is"
                  + " <core>:<interconnect>:<L2>:<DRAM>");
        }
      }
      return Optional.empty();
    }
    if (WHOLE.matcher(baseValue).matches() && !WHOLE.matcher(value).matches()) {
      return Optional.of(
          "\"" + value + "\" is not a whole number, as the base config's " + baseValue + " is");
    }
    if (NUMBER.matcher(baseValue).matches()
        && !WHOLE.matcher(baseValue).matches()
        && !NUMBER.matcher(value).matches()) {
      return Optional.of(
          "\"" + value + "\" is not a number, as the base config's " + baseValue + " is");
    }
    return Optional.empty();
  }

  /** {@code gpgpu_cache:dl2}, {@code gpgpu_const_cache:l1}, {@code gpgpu_tex_cache:l1}, ... */
  static boolean isCacheOption(String name) {
    int colon = name.indexOf(':');
    return colon > 0 && name.substring(0, colon).endsWith("cache");
  }
}
