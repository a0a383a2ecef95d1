package dev.cascade.cli;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.SimContract;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Pacer;
import dev.cascade.core.SimCommands;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cascade emulate}: what Accel-Sim would print for a trace on a GPU config, from an
 * analytical timing model (DESIGN.md section 9, docs/emulator.md); with {@code --fleet N}, N
 * emulated sims reporting to a running app, for load tests.
 */
@Command(
    name = "emulate",
    mixinStandardHelpOptions = true,
    description = {
      "Print what Accel-Sim would print for a trace on a GPU config: launch lines, each kernel's"
          + " statistics block with running totals, the exit lines. Cycles come from an analytical"
          + " timing model (docs/emulator.md): the same for every replica unless --jitter.",
      "Every option falls back to the sim's environment (CASCADE_TRACE_DIR,"
          + " CASCADE_GPU_CONFIG_DIR or CASCADE_GPU_CONFIG, CASCADE_REPLICA,"
          + " CASCADE_EMULATE_SPEED, CASCADE_EMULATE_JITTER), so 'cascade sim-agent -- cascade emulate' needs none.",
      "With --fleet N, runs N sims in this JVM against the app at --url, each with a sim id and"
          + " token from --sims, and prints what they did.",
      "Exit code: the emulated simulator's (0, or the injected failure's: 1 deadlock, 139 crash);"
          + " with --fleet, 0 when every sim's report was accepted; 2 on a usage error."
    })
final class EmulateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--trace", paramLabel = "DIR", description = "The trace folder.")
  String trace;

  @Option(
      names = "--config",
      paramLabel = "NAME|DIR",
      description = "A built-in config name (SM90_H100) or a tested-cfgs folder.")
  String config;

  @Option(names = "--replica", paramLabel = "N", description = "The replica number (0).")
  String replica;

  @Option(names = "--seed", paramLabel = "S", description = "The base seed (1).")
  String seed;

  @Option(
      names = "--speed",
      paramLabel = "X",
      description =
          "Simulated cycles per wall second; 0 = as fast as possible (default"
              + " $CASCADE_EMULATE_SPEED, else 50000 by hand; the sims serve and run start get"
              + " --speed $CASCADE_EMULATE_SPEED, else "
              + SimCommands.DEMO_SPEED
              + ").")
  String speed;

  @Option(
      names = "--fail-at-kernel",
      paramLabel = "N",
      description = "Inject --failure at kernel N (1-based).")
  String failAtKernel;

  @Option(
      names = "--failure",
      paramLabel = "KIND",
      description = "deadlock, unsupported-binary, max-cycles or crash (deadlock).")
  String failure;

  @Option(
      names = "--block-lines",
      paramLabel = "N",
      description = "At most N 'thread block' lines per kernel (32).")
  String blockLines;

  @Option(
      names = "--count-limit",
      paramLabel = "BYTES",
      description = "Count the instructions of kernel files up to this size (4 MiB).")
  String countLimit;

  @Option(
      names = "--jitter",
      arity = "0..1",
      fallbackValue = "on",
      paramLabel = "on|off",
      description =
          "Give each replica and kernel up to 1%% more or fewer cycles, to show spreads"
              + " (default off, or $CASCADE_EMULATE_JITTER): without it replicas agree exactly,"
              + " as Accel-Sim's do.")
  String jitter;

  @Option(
      names = "--fleet",
      paramLabel = "N",
      description = "Emulate N sims at once, reporting to the app (needs --sims).")
  Integer fleet;

  @Option(
      names = "--sims",
      paramLabel = "FILE",
      description = "Fleet members: one '<sim id> <token> [replica]' per line.")
  Path sims;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "The app, for --fleet (default $CASCADE_MAIN_URL, else $CASCADE_URL).")
  String url;

  @Option(
      names = "--heartbeat-millis",
      paramLabel = "N",
      description = "Between a fleet sim's heartbeats (2000).")
  Long heartbeatMillis;

  @Option(
      names = "--max-in-flight",
      paramLabel = "N",
      description = "At most N fleet requests open at once; the rest wait in the fleet (256).")
  Integer maxInFlight;

  @Override
  public Integer call() throws IOException, InterruptedException {
    EmulatorOptions options;
    try {
      options =
          EmulatorOptions.builder()
              .trace(trace)
              .config(config)
              .replica(replica)
              .seed(seed)
              .speed(speed)
              .failAtKernel(failAtKernel)
              .failure(failure)
              .blockLines(blockLines)
              .countLimit(countLimit)
              .jitter(jitter)
              .orEnvironment(CliEnvironment.current())
              .build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (fleet != null) {
      return runFleet(options);
    }
    if (sims != null || url != null || heartbeatMillis != null || maxInFlight != null) {
      throw new ParameterException(
          spec.commandLine(),
          "--sims, --url, --heartbeat-millis and --max-in-flight only go with --fleet N");
    }
    Emulation emulation = Emulator.prepare(options);
    PrintWriter writer = spec.commandLine().getOut();
    OutputStream out = new BufferedOutputStream(new WriterOutputStream(writer), 1 << 16);
    int code = Emulator.run(emulation, options.speed(), out, Pacer.system());
    writer.flush();
    return code;
  }

  private int runFleet(EmulatorOptions options) throws IOException, InterruptedException {
    if (fleet < 1) {
      throw new ParameterException(spec.commandLine(), "--fleet must be 1 or more; got " + fleet);
    }
    if (sims == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--fleet needs --sims FILE: one '<sim id> <token> [replica]' per line, for sims the app"
              + " already has");
    }
    String app = url != null ? url : firstSet(SimContract.MAIN_URL, ApiOptions.URL_ENV);
    if (app == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--fleet needs the app's URL: --url, CASCADE_MAIN_URL or CASCADE_URL");
    }
    List<EmulatorFleet.Member> members = EmulatorFleet.readMembers(sims);
    if (members.size() < fleet) {
      throw new ParameterException(
          spec.commandLine(),
          "--fleet "
              + fleet
              + " needs "
              + fleet
              + " sims but "
              + sims
              + " lists "
              + members.size());
    }
    PrintWriter writer = spec.commandLine().getOut();
    EmulatorFleet.Builder builder =
        EmulatorFleet.builder()
            .mainUrl(URI.create(app))
            .emulatorOptions(options)
            .members(members.subList(0, fleet))
            .log(new PrintStream(new WriterOutputStream(spec.commandLine().getErr()), true));
    try {
      if (heartbeatMillis != null) {
        builder.heartbeatInterval(Duration.ofMillis(heartbeatMillis));
      }
      if (maxInFlight != null) {
        builder.maxInFlight(maxInFlight);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    EmulatorFleet.Report report = builder.build().run();
    writer.println(report.summary());
    writer.flush();
    return report.unfinished() == 0 && report.lostChunks() == 0 ? 0 : 1;
  }

  private static String firstSet(String... names) {
    for (String name : names) {
      String value = CliEnvironment.current().get(name);
      if (value != null && !value.isBlank()) {
        return value.strip();
      }
    }
    return null;
  }

  /** Bytes to a {@link Writer}, decoded as UTF-8 (a character split across writes is kept). */
  static final class WriterOutputStream extends OutputStream {
    private final Writer writer;
    private final CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final CharBuffer chars = CharBuffer.allocate(1 << 16);
    private byte[] carry = new byte[0];

    WriterOutputStream(Writer writer) {
      this.writer = writer;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      ByteBuffer in;
      if (carry.length == 0) {
        in = ByteBuffer.wrap(b, off, len);
      } else {
        byte[] joined = new byte[carry.length + len];
        System.arraycopy(carry, 0, joined, 0, carry.length);
        System.arraycopy(b, off, joined, carry.length, len);
        in = ByteBuffer.wrap(joined);
      }
      decode(in);
      carry = new byte[in.remaining()];
      in.get(carry);
    }

    private void decode(ByteBuffer in) throws IOException {
      while (true) {
        var result = decoder.decode(in, chars, false);
        chars.flip();
        writer.append(chars);
        chars.clear();
        if (!result.isOverflow()) {
          return;
        }
      }
    }

    @Override
    public synchronized void flush() throws IOException {
      writer.flush();
    }

    @Override
    public synchronized void close() throws IOException {
      flush();
    }
  }
}
