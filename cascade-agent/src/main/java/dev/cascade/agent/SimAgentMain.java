package dev.cascade.agent;

import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.agent.emulator.EmulatorOptions;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The sim agent's entry point, with JDK classes only on its path so its JVM starts fast:
 *
 * <pre>
 * java -cp cascade-agent.jar:cascade-accelsim.jar:xz.jar \
 *     dev.cascade.agent.SimAgentMain [options] -- accel-sim.out -trace ...
 * java -cp ... dev.cascade.agent.SimAgentMain [options] --emulate [emulator options]
 * </pre>
 *
 * <p>{@code --emulate}, or a command that is exactly {@code cascade emulate ...}, runs the emulator
 * inside this JVM instead of starting a second one. See {@link SimAgent} for what the agent does
 * and {@link AgentExit} for its exit codes.
 */
public final class SimAgentMain {

  /** The agent's own options and how to call it. */
  public static final String USAGE =
      """
      Usage: sim-agent [options] -- CMD [ARGS...]
             sim-agent [options] --emulate [emulator options]
      Runs a simulator for a Cascade sim and reports to the app (DESIGN.md section 7): output as
      numbered chunks, heartbeats, the final state. 'cascade emulate ...' as CMD, or --emulate,
      runs the emulator inside the agent's JVM.
      Options:
        --spool DIR               where chunks wait until the app has them
                                  (default $CASCADE_DATA_DIR/work/sims/<sim id>.spool)
        --keep-spool              keep the spool folder after a complete report
        --chunk-bytes N           the largest chunk (default 262144)
        --chunk-millis N          the longest output waits before it is sent (default 1000)
        --heartbeat-millis N      between heartbeats (default 2000)
        --backoff-max-millis N    the longest wait between retries (default 10000)
        --give-up-seconds N       stop after the app has not answered this long (default
                                  600, or $CASCADE_APP_PATIENCE_S when longer)
        --gone-seconds N          stop after nothing has listened at the app's address
                                  (connection refused) this long (default
                                  120, or $CASCADE_APP_PATIENCE_S when longer)
        --kill-grace-millis N     between SIGTERM and SIGKILL to the simulator (default 3000)
        -h, --help                this text
      Environment: CASCADE_MAIN_URL, CASCADE_SIM_ID (required), CASCADE_DATA_DIR,
      CASCADE_APP_PATIENCE_S. The sim's token is the first line of standard input; the
      simulator never sees it.
      Exit codes: 0 succeeded, 1 failed, 2 usage, 3 cancelled or SIGTERM, 4 gave up reaching the
      app, 5 refused by the app (wrong token or unknown sim).
      """;

  private SimAgentMain() {}

  /**
   * The class path a sim agent's JVM needs, and nothing more: where this module's classes,
   * cascade-accelsim's and xz's come from (jars, or class folders in a build), which are exactly
   * cascade-agent's dependencies. The caller's own class path when one of them has no location.
   */
  public static String classPath() {
    Set<String> entries = new LinkedHashSet<>();
    for (Class<?> type :
        List.of(
            SimAgentMain.class,
            KernelStatsParser.class,
            org.tukaani.xz.XZInputStream.class,
            com.github.luben.zstd.ZstdDecompressCtx.class)) {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      if (source == null) {
        return System.getProperty("java.class.path");
      }
      try {
        entries.add(Path.of(source.getLocation().toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        return System.getProperty("java.class.path");
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  public static void main(String[] args) {
    int code =
        run(List.of(args), System.getenv(), System.in, System.out, System.err, Hooks.RUNTIME);
    System.exit(code);
  }

  /**
   * What the agent does to the JVM it runs in: installs and removes the SIGTERM hook, and makes the
   * JVM's memory unreadable to the other processes of its user before it reads its token. Tests
   * that run the agent in their own JVM pass {@link Hooks#NONE}.
   */
  public interface Hooks {
    void install(Thread hook);

    void remove(Thread hook);

    /**
     * Called just before the token is read from stdin (by a launched sim only, not for {@code
     * --help} or a usage error).
     */
    default void protectMemory(PrintStream log) {}

    /** The JVM's shutdown hooks: SIGTERM reaches the agent. */
    Hooks RUNTIME =
        new Hooks() {
          @Override
          public void install(Thread hook) {
            Runtime.getRuntime().addShutdownHook(hook);
          }

          @Override
          public void remove(Thread hook) {
            try {
              Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
              // The hook is running or about to: it sees the agent finished.
            }
          }

          /** Undumpable, or a word on the log saying why not: the agent runs on either way. */
          @Override
          public void protectMemory(PrintStream log) {
            Undumpable.Result result = Undumpable.apply();
            if (!result.done()) {
              new AgentLog(log).info(result.warning());
            }
          }
        };

    /** No hooks, for running the agent inside another program. */
    Hooks NONE =
        new Hooks() {
          @Override
          public void install(Thread hook) {}

          @Override
          public void remove(Thread hook) {}
        };
  }

  /** {@link #run(List, Map, InputStream, PrintStream, PrintStream, Hooks)} on this JVM's stdin. */
  public static int run(
      List<String> args, Map<String, String> env, PrintStream out, PrintStream err, Hooks hooks) {
    return run(args, env, System.in, out, err, hooks);
  }

  /**
   * Parses the arguments and the environment, reads the sim's token from {@code in}, runs the
   * agent, and returns its exit code. Usage errors print a message and {@link #USAGE} on {@code
   * err} and return 2.
   */
  public static int run(
      List<String> args,
      Map<String, String> env,
      InputStream in,
      PrintStream out,
      PrintStream err,
      Hooks hooks) {
    SimAgent agent;
    try {
      agent = parse(args, env, in, err, hooks);
    } catch (HelpRequested e) {
      out.print(USAGE);
      out.flush();
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("cascade sim-agent: " + e.getMessage());
      err.println();
      err.print(USAGE);
      err.flush();
      return AgentExit.USAGE;
    }
    Thread hook =
        new Thread(
            () -> {
              if (!agent.finished()) {
                agent.stop();
              }
              int code;
              try {
                code = agent.awaitExit(agent.stopTimeout());
              } catch (InterruptedException e) {
                code = -1;
              }
              err.flush();
              Runtime.getRuntime().halt(code < 0 ? AgentExit.CANCELLED : code);
            },
            "sim-agent-sigterm");
    hooks.install(hook);
    try {
      return agent.run();
    } catch (IOException e) {
      err.println("cascade sim-agent: " + e.getMessage());
      return AgentExit.FAILED;
    } finally {
      hooks.remove(hook);
    }
  }

  private static final class HelpRequested extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HelpRequested() {
      super(null, null, false, false);
    }
  }

  /** {@link #parse(List, Map, InputStream, PrintStream, Hooks)} that leaves the JVM as it is. */
  static SimAgent parse(
      List<String> args, Map<String, String> env, InputStream in, PrintStream log) {
    return parse(args, env, in, log, Hooks.NONE);
  }

  static SimAgent parse(
      List<String> args, Map<String, String> env, InputStream in, PrintStream log, Hooks hooks) {
    Path spool = null;
    boolean keepSpool = false;
    Integer chunkBytes = null;
    Long chunkMillis = null;
    Long heartbeatMillis = null;
    Long backoffMaxMillis = null;
    Long giveUpSeconds = null;
    Long goneSeconds = null;
    Long killGraceMillis = null;
    List<String> command = null;
    List<String> emulatorArgs = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--" -> {
          command = args.subList(i + 1, args.size());
          i = args.size();
        }
        case "--emulate" -> {
          emulatorArgs = args.subList(i + 1, args.size());
          i = args.size();
        }
        case "-h", "--help" -> throw new HelpRequested();
        case "--keep-spool" -> keepSpool = true;
        case "--spool" -> spool = Path.of(value(args, ++i, arg));
        case "--chunk-bytes" -> chunkBytes = (int) number(args, ++i, arg, 1, 8 << 20);
        case "--chunk-millis" -> chunkMillis = number(args, ++i, arg, 1, Long.MAX_VALUE);
        case "--heartbeat-millis" -> heartbeatMillis = number(args, ++i, arg, 1, Long.MAX_VALUE);
        case "--backoff-max-millis" -> backoffMaxMillis = number(args, ++i, arg, 1, Long.MAX_VALUE);
        case "--give-up-seconds" -> giveUpSeconds = number(args, ++i, arg, 1, Long.MAX_VALUE);
        case "--gone-seconds" -> goneSeconds = number(args, ++i, arg, 1, Long.MAX_VALUE);
        case "--kill-grace-millis" -> killGraceMillis = number(args, ++i, arg, 0, Long.MAX_VALUE);
        default ->
            throw new IllegalArgumentException(
                "unknown option '" + arg + "'; put the simulator command after '--'");
      }
    }
    if (command == null && emulatorArgs == null) {
      throw new IllegalArgumentException(
          "no simulator: give '-- CMD [ARGS...]' or '--emulate [emulator options]'");
    }
    if (command != null && command.isEmpty()) {
      throw new IllegalArgumentException("no simulator command after '--'");
    }
    if (command != null && isCascadeEmulate(command)) {
      emulatorArgs = command.subList(2, command.size());
    }

    String stdinToken = null;
    // Only a launched sim has its token waiting on stdin: without the app's address and the sim's
    // id (someone trying the command by hand), say what is missing instead of waiting for a line.
    if (!isBlank(env.get(SimContract.MAIN_URL)) && !isBlank(env.get(SimContract.SIM_ID))) {
      hooks.protectMemory(log);
      stdinToken = firstLine(in);
    }
    SimContract.Reporting contract = SimContract.Reporting.fromEnvironment(env, stdinToken);
    OptionalLong patience = patienceSeconds(env);
    env =
        TraceFetch.prepare(
            env, contract.simToken(), log); // fetch mode: the trace into the node's cache first
    String simId = contract.simId();
    if (spool == null) {
      spool =
          contract.dataDir() == null
              ? Path.of(System.getProperty("java.io.tmpdir"), "cascade-agent-" + simId + ".spool")
              : contract.dataDir().resolve("work").resolve("sims").resolve(simId + ".spool");
    }
    AgentSettings.Builder builder =
        AgentSettings.builder(contract.mainUrl(), simId, contract.simToken(), spool);
    builder.keepSpool = keepSpool;
    if (chunkBytes != null) {
      builder.chunkBytes = chunkBytes;
    }
    if (chunkMillis != null) {
      builder.chunkAge = Duration.ofMillis(chunkMillis);
    }
    if (heartbeatMillis != null) {
      builder.heartbeatInterval = Duration.ofMillis(heartbeatMillis);
    }
    if (backoffMaxMillis != null) {
      builder.backoffMax = Duration.ofMillis(backoffMaxMillis);
      if (builder.backoffMax.compareTo(builder.backoffInitial) < 0) {
        builder.backoffInitial = builder.backoffMax;
      }
    }
    // As long as the app waits for a silent sim (it says how long): a restart shorter than that
    // loses no sim.
    // Never shorter than the defaults: after a restart the app gives every sim a whole window
    // again, so its patience across an outage is longer than this figure.
    if (patience.isPresent()) {
      Duration told = Duration.ofSeconds(patience.getAsLong());
      builder.giveUpAfter = told.compareTo(builder.giveUpAfter) > 0 ? told : builder.giveUpAfter;
      builder.goneAfter = told.compareTo(builder.goneAfter) > 0 ? told : builder.goneAfter;
    }
    if (giveUpSeconds != null) {
      builder.giveUpAfter = Duration.ofSeconds(giveUpSeconds);
    }
    if (goneSeconds != null) {
      builder.goneAfter = Duration.ofSeconds(goneSeconds);
    }
    if (killGraceMillis != null) {
      builder.killGrace = Duration.ofMillis(killGraceMillis);
    }
    AgentSettings settings = builder.build();
    if (emulatorArgs != null) {
      return SimAgent.forEmulator(settings, EmulatorOptions.parse(emulatorArgs, env), log);
    }
    List<String> expanded = new java.util.ArrayList<>(command.size());
    for (String arg : command) {
      expanded.add(expand(arg, env));
    }
    return SimAgent.forCommand(settings, expanded, log);
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }

  /**
   * The first line of {@code in} (the sim's token, as the launcher wrote it), read byte by byte so
   * nothing after it is taken; null at once when {@code in} ends first.
   */
  static String firstLine(InputStream in) {
    StringBuilder line = new StringBuilder();
    try {
      for (int b = in.read(); b >= 0 && b != '\n' && line.length() < 4096; b = in.read()) {
        line.append((char) b);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the sim's token from standard input: " + e.getMessage(), e);
    }
    return line.isEmpty() ? null : line.toString();
  }

  /** {@value SimContract#APP_PATIENCE_S}, when set. */
  private static OptionalLong patienceSeconds(Map<String, String> env) {
    String text = env.get(SimContract.APP_PATIENCE_S);
    if (isBlank(text)) {
      return OptionalLong.empty();
    }
    try {
      long seconds = Long.parseLong(text.strip());
      if (seconds >= 1) {
        return OptionalLong.of(seconds);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        SimContract.APP_PATIENCE_S
            + " must be a whole number of seconds, 1 or more; got '"
            + text
            + "'");
  }

  /**
   * {@code $NAME} and {@code ${NAME}} replaced by the variable's value when it is set (left as they
   * are otherwise), so a command such as DESIGN.md's {@code accel-sim.out -trace
   * $CASCADE_TRACE_DIR/traces/kernelslist.g ...} works when no shell runs it.
   */
  static String expand(String arg, Map<String, String> env) {
    if (arg.indexOf('$') < 0) {
      return arg;
    }
    StringBuilder out = new StringBuilder(arg.length() + 32);
    int i = 0;
    while (i < arg.length()) {
      char c = arg.charAt(i);
      if (c != '$' || i + 1 >= arg.length()) {
        out.append(c);
        i++;
        continue;
      }
      boolean braced = arg.charAt(i + 1) == '{';
      int start = braced ? i + 2 : i + 1;
      int end = start;
      while (end < arg.length() && isNameChar(arg.charAt(end), end == start)) {
        end++;
      }
      boolean closed = !braced || (end < arg.length() && arg.charAt(end) == '}');
      String value = end > start && closed ? env.get(arg.substring(start, end)) : null;
      if (value == null) {
        out.append(c);
        i++;
        continue;
      }
      out.append(value);
      i = braced ? end + 1 : end;
    }
    return out.toString();
  }

  private static boolean isNameChar(char c, boolean first) {
    return c == '_'
        || (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (!first && c >= '0' && c <= '9');
  }

  /** {@code cascade emulate ...}: run in this JVM rather than as a second one. */
  static boolean isCascadeEmulate(List<String> command) {
    if (command.size() < 2 || !command.get(1).equals("emulate")) {
      return false;
    }
    String program = command.getFirst();
    return program.equals("cascade") || program.endsWith("/cascade");
  }

  private static String value(List<String> args, int i, String option) {
    if (i >= args.size()) {
      throw new IllegalArgumentException("option " + option + " needs a value");
    }
    return args.get(i);
  }

  private static long number(List<String> args, int i, String option, long min, long max) {
    String text = value(args, i, option);
    try {
      long value = Long.parseLong(text.strip());
      if (value < min || value > max) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option
              + " must be a whole number from "
              + min
              + (max == Long.MAX_VALUE ? " up" : " to " + max)
              + "; got '"
              + text
              + "'",
          e);
    }
  }
}
