package dev.cascade.agent.emulator;

import dev.cascade.agent.SimContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code cascade emulate} is asked to do. Every option has an environment fallback, so {@code
 * cascade emulate} with no options works inside a sim (DESIGN.md section 7's variables).
 *
 * @param trace the trace: a folder with {@code traces/kernelslist.g}, a folder with {@code
 *     kernelslist.g}, or the file ({@code --trace}, else {@code $CASCADE_TRACE_DIR})
 * @param config a tested-cfgs folder or a built-in config's name ({@code --config}, else {@code
 *     $CASCADE_GPU_CONFIG_DIR} when not empty, else {@code $CASCADE_GPU_CONFIG})
 * @param replica the replica number ({@code --replica}, else {@code $CASCADE_REPLICA}, else 0)
 * @param seed the base seed ({@code --seed}, else {@code $CASCADE_EMULATE_SEED}, else 1)
 * @param speed simulated cycles per wall second; 0 runs as fast as it can ({@code --speed}, else
 *     {@code $CASCADE_EMULATE_SPEED}, else {@value #DEFAULT_SPEED})
 * @param failAtKernel the 1-based kernel at which to inject {@code failure}; 0 for none
 * @param failure what to inject at {@code failAtKernel}
 * @param blockLines at most this many {@code thread block = x,y,z} lines per kernel
 * @param countLimitBytes kernel files up to this size on disk are counted in full; larger ones are
 *     estimated
 */
public record EmulatorOptions(
    Path trace,
    String config,
    int replica,
    long seed,
    double speed,
    int failAtKernel,
    Failure failure,
    int blockLines,
    long countLimitBytes) {

  /**
   * The default pace: 50,000 simulated cycles per second, a few times a real Accel-Sim's rate on a
   * small GPU, so the demo trace's sims take a few seconds and progress is visible.
   */
  public static final double DEFAULT_SPEED = 50_000;

  public static final long DEFAULT_SEED = 1;
  public static final int DEFAULT_BLOCK_LINES = 32;

  public static final String SPEED_ENV = "CASCADE_EMULATE_SPEED";
  public static final String SEED_ENV = "CASCADE_EMULATE_SEED";

  /** How to use the options, for {@code --help} of the agent's {@code --emulate} mode. */
  public static final String USAGE =
      """
      Emulator options (each falls back to the sim's environment):
        --trace DIR             the trace: DIR/traces/kernelslist.g, DIR/kernelslist.g or the file
                                ($CASCADE_TRACE_DIR)
        --config NAME|DIR       a tested-cfgs folder or a built-in config name such as SM90_H100
                                ($CASCADE_GPU_CONFIG_DIR, else $CASCADE_GPU_CONFIG)
        --replica N             the replica number ($CASCADE_REPLICA, else 0)
        --seed S                the base seed ($CASCADE_EMULATE_SEED, else 1)
        --speed X               simulated cycles per wall second, 0 = as fast as possible
                                ($CASCADE_EMULATE_SPEED, else 50000)
        --fail-at-kernel N      inject --failure at kernel N (1-based)
        --failure KIND          deadlock (exit 1), unsupported-binary (exit 0), max-cycles (exit 0)
                                or crash (exit 139); default deadlock
        --block-lines N         at most N 'thread block = x,y,z' lines per kernel (default 32)
        --count-limit BYTES     count the instructions of kernel files up to this size, estimate
                                larger ones (default 4194304)
      """;

  public EmulatorOptions {
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(failure, "failure");
    if (config.isBlank()) {
      throw new IllegalArgumentException("no GPU config: give --config NAME|DIR");
    }
    if (replica < 0) {
      throw new IllegalArgumentException("--replica must be 0 or more; got " + replica);
    }
    if (!(speed >= 0) || Double.isInfinite(speed)) {
      throw new IllegalArgumentException(
          "--speed must be 0 (as fast as possible) or a positive number of cycles per second; got "
              + speed);
    }
    if (failAtKernel < 0) {
      throw new IllegalArgumentException("--fail-at-kernel must be 1 or more; got " + failAtKernel);
    }
    if (blockLines < 0) {
      throw new IllegalArgumentException("--block-lines must be 0 or more; got " + blockLines);
    }
    if (countLimitBytes < 0) {
      throw new IllegalArgumentException(
          "--count-limit must be 0 or more bytes; got " + countLimitBytes);
    }
  }

  /** Options for {@code trace} on {@code config} with every other option at its default. */
  public static EmulatorOptions of(Path trace, String config) {
    return new EmulatorOptions(
        trace,
        config,
        0,
        DEFAULT_SEED,
        DEFAULT_SPEED,
        0,
        Failure.DEADLOCK,
        DEFAULT_BLOCK_LINES,
        EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES);
  }

  /**
   * Parses {@code --name value} and {@code --name=value} arguments, with the environment's
   * fallbacks.
   *
   * @throws IllegalArgumentException for an unknown option, a missing or malformed value, or no
   *     trace or config anywhere; the message says which and how to fix it
   */
  public static EmulatorOptions parse(List<String> args, Map<String, String> env) {
    String trace = blankToNull(env.get(SimContract.TRACE_DIR));
    String config = blankToNull(env.get(SimContract.GPU_CONFIG_DIR));
    if (config == null) {
      config = blankToNull(env.get(SimContract.GPU_CONFIG));
    }
    String replica = blankToNull(env.get(SimContract.REPLICA));
    String seed = blankToNull(env.get(SEED_ENV));
    String speed = blankToNull(env.get(SPEED_ENV));
    String failAt = null;
    String failure = null;
    String blockLines = null;
    String countLimit = null;
    List<String> rest = new ArrayList<>(args);
    for (int i = 0; i < rest.size(); i++) {
      String arg = rest.get(i);
      String name = arg;
      String value = null;
      int equals = arg.indexOf('=');
      if (arg.startsWith("--") && equals > 0) {
        name = arg.substring(0, equals);
        value = arg.substring(equals + 1);
      }
      if (!List.of(
              "--trace",
              "--config",
              "--replica",
              "--seed",
              "--speed",
              "--fail-at-kernel",
              "--failure",
              "--block-lines",
              "--count-limit")
          .contains(name)) {
        throw new IllegalArgumentException(
            "unknown emulator option '" + arg + "'\n" + USAGE.stripTrailing());
      }
      if (value == null) {
        if (i + 1 >= rest.size()) {
          throw new IllegalArgumentException("option " + name + " needs a value");
        }
        value = rest.get(++i);
      }
      switch (name) {
        case "--trace" -> trace = value;
        case "--config" -> config = value;
        case "--replica" -> replica = value;
        case "--seed" -> seed = value;
        case "--speed" -> speed = value;
        case "--fail-at-kernel" -> failAt = value;
        case "--failure" -> failure = value;
        case "--block-lines" -> blockLines = value;
        default -> countLimit = value;
      }
    }
    if (trace == null) {
      throw new IllegalArgumentException(
          "no trace: give --trace DIR (or set CASCADE_TRACE_DIR, as a sim's environment does)");
    }
    if (config == null) {
      throw new IllegalArgumentException(
          "no GPU config: give --config NAME|DIR (or set CASCADE_GPU_CONFIG_DIR or"
              + " CASCADE_GPU_CONFIG, as a sim's environment does)");
    }
    return new EmulatorOptions(
        Path.of(trace),
        config,
        (int) number("--replica", replica, 0),
        number("--seed", seed, DEFAULT_SEED),
        decimal("--speed", speed, DEFAULT_SPEED),
        (int) number("--fail-at-kernel", failAt, 0),
        failure == null ? Failure.DEADLOCK : Failure.fromLabel(failure),
        (int) number("--block-lines", blockLines, DEFAULT_BLOCK_LINES),
        number("--count-limit", countLimit, EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES));
  }

  public EmulatorOptions withReplica(int replica) {
    return new EmulatorOptions(
        trace, config, replica, seed, speed, failAtKernel, failure, blockLines, countLimitBytes);
  }

  public EmulatorOptions withSeed(long seed) {
    return new EmulatorOptions(
        trace, config, replica, seed, speed, failAtKernel, failure, blockLines, countLimitBytes);
  }

  public EmulatorOptions withSpeed(double speed) {
    return new EmulatorOptions(
        trace, config, replica, seed, speed, failAtKernel, failure, blockLines, countLimitBytes);
  }

  public EmulatorOptions withFailure(int failAtKernel, Failure failure) {
    return new EmulatorOptions(
        trace, config, replica, seed, speed, failAtKernel, failure, blockLines, countLimitBytes);
  }

  public EmulatorOptions withBlockLines(int blockLines) {
    return new EmulatorOptions(
        trace, config, replica, seed, speed, failAtKernel, failure, blockLines, countLimitBytes);
  }

  public EmulatorOptions withCountLimitBytes(long countLimitBytes) {
    return new EmulatorOptions(
        trace, config, replica, seed, speed, failAtKernel, failure, blockLines, countLimitBytes);
  }

  private static long number(String option, String value, long fallback) {
    if (value == null) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.strip());
      if (parsed > Integer.MAX_VALUE
          && !option.equals("--seed")
          && !option.equals("--count-limit")) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " must be a whole number; got '" + value + "'", e);
    }
  }

  private static double decimal(String option, String value, double fallback) {
    if (value == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(value.strip().toLowerCase(Locale.ROOT));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a number; got '" + value + "'", e);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
