package dev.cascade.agent.emulator;

import dev.cascade.agent.SimContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

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
 * @param jitter give each replica and kernel up to +-1% of cycles, to show spreads ({@code
 *     --jitter}, else {@code $CASCADE_EMULATE_JITTER}, else off: the same trace and config give the
 *     same cycles for every replica, as Accel-Sim does)
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
    long countLimitBytes,
    boolean jitter) {

  /**
   * The default pace: 50,000 simulated cycles per second, a few times a real Accel-Sim's rate on a
   * small GPU, so the demo trace's sims take a few seconds and progress is visible.
   */
  public static final double DEFAULT_SPEED = 50_000;

  public static final long DEFAULT_SEED = 1;
  public static final int DEFAULT_BLOCK_LINES = 32;

  public static final String SPEED_ENV = "CASCADE_EMULATE_SPEED";
  public static final String SEED_ENV = "CASCADE_EMULATE_SEED";
  public static final String JITTER_ENV = "CASCADE_EMULATE_JITTER";

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
        --jitter[=on|off]       up to +-1% of cycles per replica and per kernel, to show spreads
                                ($CASCADE_EMULATE_JITTER, else off: replicas agree exactly)
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
    return builder().trace(trace).config(config).build();
  }

  /** Options to fill in one by one; those left unset take their defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The options given as text, by name, each read by the builder's setter of that option. */
  private static final Map<String, BiConsumer<Builder, String>> OPTIONS =
      Map.of(
          "--trace", Builder::trace,
          "--config", Builder::config,
          "--replica", Builder::replica,
          "--seed", Builder::seed,
          "--speed", Builder::speed,
          "--fail-at-kernel", Builder::failAtKernel,
          "--failure", Builder::failure,
          "--block-lines", Builder::blockLines,
          "--count-limit", Builder::countLimit,
          "--jitter", Builder::jitter);

  /**
   * Parses {@code --name value} and {@code --name=value} arguments, with the environment's
   * fallbacks.
   *
   * @throws IllegalArgumentException for an unknown option, a missing or malformed value, or no
   *     trace or config anywhere; the message says which and how to fix it
   */
  public static EmulatorOptions parse(List<String> args, Map<String, String> env) {
    Builder builder = builder();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = arg;
      String value = null;
      int equals = arg.indexOf('=');
      if (arg.startsWith("--") && equals > 0) {
        name = arg.substring(0, equals);
        value = arg.substring(equals + 1);
      }
      BiConsumer<Builder, String> option = OPTIONS.get(name);
      if (option == null) {
        throw new IllegalArgumentException(
            "unknown emulator option '" + arg + "'\n" + USAGE.stripTrailing());
      }
      if (value == null && name.equals("--jitter")) {
        value = "on";
      }
      if (value == null) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException("option " + name + " needs a value");
        }
        value = args.get(++i);
      }
      option.accept(builder, value);
    }
    return builder.orEnvironment(env).build();
  }

  public EmulatorOptions withReplica(int replica) {
    return toBuilder().replica(replica).build();
  }

  public EmulatorOptions withSeed(long seed) {
    return toBuilder().seed(seed).build();
  }

  public EmulatorOptions withSpeed(double speed) {
    return toBuilder().speed(speed).build();
  }

  public EmulatorOptions withFailure(int failAtKernel, Failure failure) {
    return toBuilder().failure(failAtKernel, failure).build();
  }

  public EmulatorOptions withBlockLines(int blockLines) {
    return toBuilder().blockLines(blockLines).build();
  }

  public EmulatorOptions withCountLimitBytes(long countLimitBytes) {
    return toBuilder().countLimitBytes(countLimitBytes).build();
  }

  public EmulatorOptions withJitter(boolean jitter) {
    return toBuilder().jitter(jitter).build();
  }

  /** A builder holding these options, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Options set one by one, typed or as the text a command line or the environment gives (read
   * once, here, with messages that name the option); a null text leaves the option unset. Unset
   * options take their defaults, or with {@link #orEnvironment} the sim's environment first.
   */
  public static final class Builder {
    private Path trace;
    private String config;
    private Integer replica;
    private Long seed;
    private Double speed;
    private Integer failAtKernel;
    private Failure failure;
    private Integer blockLines;
    private Long countLimitBytes;
    private Boolean jitter;

    private Builder() {}

    private Builder(EmulatorOptions options) {
      trace = options.trace;
      config = options.config;
      replica = options.replica;
      seed = options.seed;
      speed = options.speed;
      failAtKernel = options.failAtKernel;
      failure = options.failure;
      blockLines = options.blockLines;
      countLimitBytes = options.countLimitBytes;
      jitter = options.jitter;
    }

    public Builder trace(Path trace) {
      this.trace = trace;
      return this;
    }

    public Builder trace(String text) {
      return text == null ? this : trace(Path.of(text));
    }

    public Builder config(String config) {
      this.config = config;
      return this;
    }

    public Builder replica(int replica) {
      this.replica = replica;
      return this;
    }

    public Builder replica(String text) {
      return text == null ? this : replica((int) number("--replica", text));
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    public Builder seed(String text) {
      return text == null ? this : seed(number("--seed", text));
    }

    public Builder speed(double speed) {
      this.speed = speed;
      return this;
    }

    public Builder speed(String text) {
      return text == null ? this : speed(decimal("--speed", text));
    }

    public Builder failure(int atKernel, Failure failure) {
      this.failAtKernel = atKernel;
      this.failure = failure;
      return this;
    }

    public Builder failAtKernel(String text) {
      if (text != null) {
        failAtKernel = (int) number("--fail-at-kernel", text);
      }
      return this;
    }

    public Builder failure(String text) {
      if (text != null) {
        failure = Failure.fromLabel(text);
      }
      return this;
    }

    public Builder blockLines(int blockLines) {
      this.blockLines = blockLines;
      return this;
    }

    public Builder blockLines(String text) {
      return text == null ? this : blockLines((int) number("--block-lines", text));
    }

    public Builder countLimitBytes(long countLimitBytes) {
      this.countLimitBytes = countLimitBytes;
      return this;
    }

    public Builder countLimit(String text) {
      return text == null ? this : countLimitBytes(number("--count-limit", text));
    }

    public Builder jitter(boolean jitter) {
      this.jitter = jitter;
      return this;
    }

    /**
     * {@code on}, {@code off} and their usual spellings ({@code true}, {@code 1}, {@code no}...).
     */
    public Builder jitter(String text) {
      return text == null ? this : jitter(onOff("--jitter", text));
    }

    /**
     * Takes what is still unset from the sim's environment (DESIGN.md section 7's variables, and
     * {@value #SPEED_ENV}, {@value #SEED_ENV} and {@value #JITTER_ENV}); blank variables count as
     * unset.
     */
    public Builder orEnvironment(Map<String, String> env) {
      if (trace == null) {
        trace(blankToNull(env.get(SimContract.TRACE_DIR)));
      }
      if (config == null) {
        String dir = blankToNull(env.get(SimContract.GPU_CONFIG_DIR));
        config(dir != null ? dir : blankToNull(env.get(SimContract.GPU_CONFIG)));
      }
      if (replica == null) {
        replica(blankToNull(env.get(SimContract.REPLICA)));
      }
      if (seed == null) {
        seed(blankToNull(env.get(SEED_ENV)));
      }
      if (speed == null) {
        speed(blankToNull(env.get(SPEED_ENV)));
      }
      if (jitter == null) {
        String text = blankToNull(env.get(JITTER_ENV));
        if (text != null) {
          jitter(onOff(JITTER_ENV, text));
        }
      }
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException when there is no trace or config, or a value is out of range
     */
    public EmulatorOptions build() {
      if (trace == null) {
        throw new IllegalArgumentException(
            "no trace: give --trace DIR (or set "
                + SimContract.TRACE_DIR
                + ", as a sim's environment does)");
      }
      if (config == null) {
        throw new IllegalArgumentException(
            "no GPU config: give --config NAME|DIR (or set "
                + SimContract.GPU_CONFIG_DIR
                + " or "
                + SimContract.GPU_CONFIG
                + ", as a sim's environment does)");
      }
      return new EmulatorOptions(
          trace,
          config,
          replica == null ? 0 : replica,
          seed == null ? DEFAULT_SEED : seed,
          speed == null ? DEFAULT_SPEED : speed,
          failAtKernel == null ? 0 : failAtKernel,
          failure == null ? Failure.DEADLOCK : failure,
          blockLines == null ? DEFAULT_BLOCK_LINES : blockLines,
          countLimitBytes == null ? EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES : countLimitBytes,
          jitter != null && jitter);
    }
  }

  private static long number(String option, String value) {
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

  private static boolean onOff(String option, String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes", "1" -> true;
      case "off", "false", "no", "0" -> false;
      default ->
          throw new IllegalArgumentException(option + " must be on or off; got '" + value + "'");
    };
  }

  private static double decimal(String option, String value) {
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
