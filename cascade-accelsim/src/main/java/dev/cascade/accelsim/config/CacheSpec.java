package dev.cascade.accelsim.config;

import java.util.List;
import java.util.Optional;

/**
 * A GPGPU-Sim cache option's value ({@code -gpgpu_cache:dl2}, {@code -gpgpu_cache:dl1}, {@code
 * -gpgpu_const_cache:l1}, ...): {@code S:64:128:16,L:B:m:L:P,A:192:4,32:0,32}, or {@code none} for
 * no cache. The simulator reads it field by field and aborts on a value it cannot read ("cache
 * configuration parsing error"), so a variant's cache spec is checked here first, with a message
 * that names the field.
 *
 * <p>Layout, as GPGPU-Sim's {@code cache_config::init} reads it: {@code <type>:<sets>:<line
 * bytes>:<ways>,<replacement>:<write>:<allocate>:<write allocate>:<set index>,<mshr type>:<mshr
 * entries>:<mshr max merge>} and optionally {@code ,<miss queue>:<result fifo>} and {@code ,<data
 * port width>}.
 *
 * @param sets sets; 0 for {@code none}
 * @param lineBytes line size in bytes; 0 for {@code none}
 * @param ways associativity; 0 for {@code none}
 */
public record CacheSpec(char type, int sets, int lineBytes, int ways) {

  /** The layout, for messages. */
  public static final String FORMAT =
      "<type N|S>:<sets>:<line bytes>:<ways>,<replacement L|F>:<write R|B|T|E|L>:<allocate m|f|s>"
          + ":<write allocate N|W|F|L>:<set index H|P|C|L|X>,<mshr F|T|A|S>:<entries>:<max merge>"
          + "[,<miss queue>[:<result fifo>][,<data port width>]], or none";

  private record Field(String name, String letters) {}

  private static final List<Field> POLICIES =
      List.of(
          new Field("replacement", "LF"),
          new Field("write policy", "RBTEL"),
          new Field("allocation policy", "mfs"),
          new Field("write-allocate policy", "NWFL"),
          new Field("set index function", "HPCLX"));

  /** The bytes the cache holds: sets x line x ways. */
  public long bytes() {
    return (long) sets * lineBytes * ways;
  }

  /** True for {@code none}: no cache. */
  public boolean disabled() {
    return type == '-';
  }

  /**
   * Reads a cache spec.
   *
   * @throws IllegalArgumentException naming the field that is wrong and the layout
   */
  public static CacheSpec parse(String value) {
    String text = value == null ? "" : value.strip();
    if (text.equals("none")) {
      return new CacheSpec('-', 0, 0, 0);
    }
    String[] groups = text.split(",", -1);
    if (groups.length < 3 || groups.length > 5) {
      throw problem(text, "has " + groups.length + " comma-separated groups; expected 3 to 5");
    }
    String[] geometry = groups[0].split(":", -1);
    if (geometry.length != 4) {
      throw problem(
          text, "starts with \"" + groups[0] + "\"; expected <type>:<sets>:<line>:<ways>");
    }
    char type = letter(text, "cache type", geometry[0], "NS");
    int sets = number(text, "sets", geometry[1]);
    int line = number(text, "line bytes", geometry[2]);
    int ways = number(text, "ways", geometry[3]);
    if (sets == 0 || line == 0 || ways == 0) {
      throw problem(text, "has 0 sets, line bytes or ways; use \"none\" for no cache");
    }
    if (type == 'S' && line != 128) {
      throw problem(
          text,
          "is a sector cache (S) with "
              + line
              + "-byte lines; sector caches have"
              + " 128-byte lines (4 sectors of 32)");
    }
    String[] policies = groups[1].split(":", -1);
    if (policies.length != POLICIES.size()) {
      throw problem(
          text,
          "has \"" + groups[1] + "\" as its policies; expected five letters such as L:B:m:L:P");
    }
    for (int i = 0; i < policies.length; i++) {
      letter(text, POLICIES.get(i).name(), policies[i], POLICIES.get(i).letters());
    }
    String[] mshr = groups[2].split(":", -1);
    if (mshr.length != 3) {
      throw problem(
          text, "has \"" + groups[2] + "\" as its MSHR; expected <type>:<entries>:<merge>");
    }
    letter(text, "MSHR type", mshr[0], "FTAS");
    number(text, "MSHR entries", mshr[1]);
    number(text, "MSHR max merge", mshr[2]);
    if (groups.length > 3) {
      // The simulator reads fields in order and stops at the first missing one: a miss queue
      // without a result fifo is complete enough.
      String[] queues = groups[3].split(":", -1);
      if (queues.length > 2) {
        throw problem(
            text, "has \"" + groups[3] + "\" as its queues; expected <miss queue>[:<result fifo>]");
      }
      number(text, "miss queue", queues[0]);
      if (queues.length == 2) {
        number(text, "result fifo", queues[1]);
      }
    }
    if (groups.length > 4) {
      int port = number(text, "data port width", groups[4]);
      if (port != 0 && line % port != 0) {
        throw problem(
            text,
            "has a data port width of "
                + port
                + " that does not divide the "
                + line
                + "-byte line");
      }
    }
    return new CacheSpec(type, sets, line, ways);
  }

  /** The spec as read, or empty when {@code value} is not one ({@link #parse}'s reason aside). */
  public static Optional<CacheSpec> tryParse(String value) {
    try {
      return Optional.of(parse(value));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static char letter(String text, String field, String value, String allowed) {
    if (value.length() != 1 || allowed.indexOf(value.charAt(0)) < 0) {
      throw problem(
          text,
          "has \""
              + value
              + "\" as its "
              + field
              + "; expected one of "
              + String.join(
                  ", ", allowed.chars().mapToObj(c -> String.valueOf((char) c)).toList()));
    }
    return value.charAt(0);
  }

  private static int number(String text, String field, String value) {
    try {
      int number = Integer.parseInt(value.strip());
      if (number >= 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw problem(text, "has \"" + value + "\" as its " + field + "; expected a whole number");
  }

  private static IllegalArgumentException problem(String text, String why) {
    return new IllegalArgumentException(
        "cache spec \"" + text + "\" " + why + "; the layout is " + FORMAT);
  }
}
