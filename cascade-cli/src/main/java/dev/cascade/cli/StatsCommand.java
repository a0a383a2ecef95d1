package dev.cascade.cli;

import dev.cascade.accelsim.stats.BuildString;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.StatsListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cascade stats FILE... [--json|--csv]}: parses Accel-Sim simulator output offline and
 * prints every kernel's cycles, instructions and IPC (and, with {@code --json}, every numeric
 * statistic of its block). Streams: each file is read through a 1 MiB buffer and each kernel is
 * printed as soon as its block ends, so memory stays small whatever the file size.
 */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = {
      "Parse Accel-Sim simulator output (accel-sim.out's stdout) offline: per kernel, its own"
          + " cycles and instructions (differences of gpu_tot_sim_cycle and gpu_tot_sim_insn, as"
          + " get_stats.py -k -K reports them), IPC, and every numeric statistic of its block.",
      "Exit code 0 when every file was read, 1 when one could not be, 2 on a usage error."
    })
final class StatsCommand implements Callable<Integer> {

  private static final int READ_BUFFER_BYTES = 1 << 20;
  private static final String CANNOT_WRITE =
      "cannot write the output (a closed pipe or a full disk?)";

  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Simulator output files to parse.")
  List<Path> files;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Format format = new Format();

  static final class Format {
    @Option(
        names = "--json",
        description =
            "Print {\"files\": [{\"file\", \"complete\", \"outcome\", \"build\", \"kernels\":"
                + " [{\"name\", \"uid\", \"instance\", \"cycles\", \"instructions\", \"ipc\","
                + " \"stats\"}]}]}.")
    boolean json;

    @Option(
        names = "--csv",
        description = "Print one row per kernel: file,name,uid,instance,cycles,instructions,ipc.")
    boolean csv;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // JSON encoding costs about as much as parsing: it runs on a second thread.
    Output output =
        format.json
            ? new BackgroundOutput(new JsonOutput(out))
            : format.csv ? new CsvOutput(out) : new TableOutput(out);
    int exitCode = 0;
    output.begin();
    for (Path file : files) {
      String problem = parse(file, output);
      if (problem != null) {
        err.println("cascade stats: cannot read '" + file + "': " + problem);
        exitCode = 1;
      }
      if (!format.json && outputBroken(out)) {
        throw new IOException(CANNOT_WRITE);
      }
    }
    output.end();
    out.flush();
    return exitCode;
  }

  /** Parses one file into {@code output}; returns why it could not be read, or null. */
  private static String parse(Path file, Output output) throws IOException {
    if (Files.isDirectory(file)) {
      return "it is a directory; give the simulator's output file";
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException e) {
      return reason(e);
    }
    String problem = null;
    output.file(file);
    KernelStatsParser parser = new KernelStatsParser(output);
    try (channel) {
      ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
      while (channel.read(buffer) >= 0) {
        buffer.flip();
        parser.feed(buffer);
        buffer.clear();
      }
    } catch (IOException e) {
      problem = reason(e) + " (the kernels before the error are printed)";
    }
    output.endFile(parser.finish());
    return problem;
  }

  /**
   * True when writing failed, so there is no point going on (as with {@code cascade stats big.log |
   * head}). PrintWriter and PrintStream hide write errors; the default output wraps System.out.
   */
  private static boolean outputBroken(PrintWriter out) {
    return out.checkError() || System.out.checkError();
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file; check the path";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** Where the parser's events go; one implementation per output format. */
  private abstract static class Output implements StatsListener {
    String accelSimBuild;
    String gpgpuSimBuild;

    void begin() throws IOException {}

    /** A file starts; resets what belongs to one file. */
    void file(Path file) {
      accelSimBuild = null;
      gpgpuSimBuild = null;
    }

    abstract void kernel(KernelStats kernel) throws IOException;

    abstract void endFile(LogOutcome outcome) throws IOException;

    void end() throws IOException {}

    @Override
    public final void onKernelFinished(KernelStats kernel) {
      try {
        kernel(kernel);
      } catch (IOException e) {
        throw new UncheckedIOException(e.getMessage(), e);
      }
    }

    @Override
    public void onBuild(BuildString build) {
      if (build.component() == BuildString.Component.ACCEL_SIM && accelSimBuild == null) {
        accelSimBuild = build.build();
      } else if (build.component() == BuildString.Component.GPGPU_SIM && gpgpuSimBuild == null) {
        gpgpuSimBuild = build.build();
      }
    }
  }

  /**
   * Hands every event to another output on a writer thread, in order, through a bounded queue (so a
   * slow writer holds the parser back instead of piling up kernels in memory).
   */
  private static final class BackgroundOutput extends Output {
    private static final int QUEUE_LENGTH = 64;

    private interface Task {
      void run() throws IOException;
    }

    private static final Task STOP = () -> {};

    private final Output target;
    private final BlockingQueue<Task> tasks = new ArrayBlockingQueue<>(QUEUE_LENGTH);
    private final Thread writer;
    private volatile Exception failure;

    BackgroundOutput(Output target) {
      this.target = target;
      writer = Thread.ofPlatform().name("cascade-stats-writer").daemon().start(this::drain);
    }

    private void drain() {
      try {
        for (Task task = tasks.take(); task != STOP; task = tasks.take()) {
          if (failure == null) {
            try {
              task.run();
            } catch (IOException | RuntimeException e) {
              failure = e; // keep taking tasks so the parser never blocks on a full queue
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void submit(Task task) {
      if (failure != null) {
        throw failure instanceof RuntimeException runtime
            ? runtime
            : new UncheckedIOException(failure.getMessage(), (IOException) failure);
      }
      try {
        tasks.put(task);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while writing the output", e);
      }
    }

    @Override
    void begin() {
      submit(target::begin);
    }

    @Override
    void file(Path file) {
      submit(() -> target.file(file));
    }

    @Override
    public void onBuild(BuildString build) {
      submit(() -> target.onBuild(build));
    }

    @Override
    void kernel(KernelStats kernel) {
      submit(() -> target.kernel(kernel));
    }

    @Override
    void endFile(LogOutcome outcome) {
      submit(() -> target.endFile(outcome));
    }

    @Override
    void end() throws IOException {
      submit(target::end);
      submit(STOP);
      try {
        writer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while writing the output", e);
      }
      if (failure instanceof IOException io) {
        throw io;
      }
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
    }
  }

  /**
   * The JSON of DESIGN.md section 14, streamed kernel by kernel:
   *
   * <pre>{@code
   * {"files": [{"file": ..., "build": {"accel_sim": ..., "gpgpu_sim": ...}, "kernels": [{"name":
   * ..., "uid": n, "instance": i, "cycles": n, "instructions": n, "ipc": x, "stats": {...}}],
   * "complete": bool, "outcome": {"state": ..., "reason": ...}}]}
   * }</pre>
   */
  private static final class JsonOutput extends Output implements KernelStats.StatVisitor {
    private final JsonWriter json;
    private boolean fileHeaderWritten;

    JsonOutput(PrintWriter out) {
      json = new JsonWriter(out);
    }

    @Override
    void begin() throws IOException {
      json.beginObject();
      json.name("files");
      json.beginArray();
    }

    @Override
    void file(Path file) {
      super.file(file);
      fileHeaderWritten = false;
      json.beginObject();
      json.name("file");
      json.value(file.toString());
    }

    /** The build strings, then the kernels: written once the first kernel (or the end) comes. */
    private void fileHeader() {
      if (!fileHeaderWritten) {
        fileHeaderWritten = true;
        json.name("build");
        json.beginObject();
        json.name("accel_sim");
        json.value(accelSimBuild);
        json.name("gpgpu_sim");
        json.value(gpgpuSimBuild);
        json.endObject();
        json.name("kernels");
        json.beginArray();
      }
    }

    @Override
    void kernel(KernelStats kernel) throws IOException {
      fileHeader();
      json.beginObject();
      json.name("name");
      json.value(kernel.name());
      json.name("uid");
      json.value(kernel.uid());
      json.name("instance");
      json.value(kernel.instance());
      json.name("cycles");
      json.value(kernel.cycles());
      json.name("instructions");
      json.value(kernel.instructions());
      json.name("ipc");
      json.value(kernel.ipc());
      json.name("stats");
      json.beginObject();
      kernel.forEachStat(this);
      json.endObject();
      json.endObject();
    }

    @Override
    public void integer(String key, long value) {
      json.cachedName(key);
      json.value(value);
    }

    @Override
    public void decimal(String key, double value) {
      json.cachedName(key);
      json.value(value);
    }

    @Override
    void endFile(LogOutcome outcome) throws IOException {
      fileHeader();
      json.endArray();
      json.name("complete");
      json.value(outcome.complete());
      json.name("outcome");
      json.beginObject();
      json.name("state");
      json.value(outcome.state().label());
      json.name("reason");
      json.value(outcome.reason());
      json.endObject();
      json.endObject();
    }

    @Override
    void end() throws IOException {
      json.endArray();
      json.endObject();
      json.newline();
      json.flush();
    }
  }

  /**
   * A small streaming JSON writer made for this output's shape: thousands of numbers per kernel
   * under the same keys, so each key is escaped once and numbers go straight into a char buffer.
   * Not thread-safe.
   */
  static final class JsonWriter {
    private static final int BUFFER_CHARS = 1 << 16;
    private static final int MAX_CACHED_NAMES = 1 << 16;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final double[] POWERS_OF_TEN = {
      1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
    };

    private final PrintWriter out;
    private final char[] buffer = new char[BUFFER_CHARS];
    private int length;
    private final boolean[] first = new boolean[64];
    private int depth;
    private boolean afterName;
    private final Map<String, char[]> names = new IdentityHashMap<>();

    JsonWriter(PrintWriter out) {
      this.out = out;
    }

    void beginObject() {
      beforeValue();
      begin('{');
    }

    void endObject() {
      end('}');
    }

    void beginArray() {
      beforeValue();
      begin('[');
    }

    void endArray() {
      end(']');
    }

    private void begin(char bracket) {
      ensure(1);
      buffer[length++] = bracket;
      first[++depth] = true;
    }

    private void end(char bracket) {
      ensure(1);
      buffer[length++] = bracket;
      depth--;
    }

    void name(String name) {
      beforeName();
      string(name);
      ensure(1);
      buffer[length++] = ':';
      afterName = true;
    }

    /**
     * Like {@link #name} for names seen again and again: remembered by identity (the parser hands
     * out one String per key), escaped once.
     */
    void cachedName(String name) {
      char[] quoted = names.get(name);
      if (quoted == null) {
        quoted = ('"' + escape(name) + "\":").toCharArray();
        if (quoted.length > buffer.length / 2) {
          name(name);
          return;
        }
        if (names.size() < MAX_CACHED_NAMES) {
          names.put(name, quoted);
        }
      }
      beforeName();
      ensure(quoted.length);
      System.arraycopy(quoted, 0, buffer, length, quoted.length);
      length += quoted.length;
      afterName = true;
    }

    void value(String value) {
      beforeValue();
      if (value == null) {
        raw("null");
      } else {
        string(value);
      }
    }

    void value(boolean value) {
      beforeValue();
      raw(value ? "true" : "false");
    }

    void value(long value) {
      beforeValue();
      if (value == Long.MIN_VALUE) {
        raw(Long.toString(value));
        return;
      }
      ensure(20);
      if (value < 0) {
        buffer[length++] = '-';
        value = -value;
      }
      int digits = 1;
      for (long rest = value / 10; rest != 0; rest /= 10) {
        digits++;
      }
      for (int i = length + digits - 1; i >= length; i--) {
        buffer[i] = (char) ('0' + value % 10);
        value /= 10;
      }
      length += digits;
    }

    /**
     * A double in its shortest plain form when it has at most 15 significant digits and 15 decimals
     * (every value of a simulator log does), else as {@link Double#toString}; {@code null} when not
     * finite (JSON has no NaN).
     */
    void value(double value) {
      if (!Double.isFinite(value)) {
        beforeValue();
        raw("null");
        return;
      }
      double magnitude = Math.abs(value);
      if (magnitude < 1e15) {
        for (int scale = 1; scale < POWERS_OF_TEN.length; scale++) {
          long unscaled = Math.round(magnitude * POWERS_OF_TEN[scale]);
          if (unscaled / POWERS_OF_TEN[scale] == magnitude && unscaled < 1e15) {
            decimal(value < 0, unscaled, scale);
            return;
          }
        }
      }
      beforeValue();
      raw(Double.toString(value));
    }

    /** {@code unscaled × 10^-scale}, with at least one decimal and no trailing zero beyond it. */
    private void decimal(boolean negative, long unscaled, int scale) {
      while (scale > 1 && unscaled % 10 == 0) {
        unscaled /= 10;
        scale--;
      }
      beforeValue();
      ensure(40);
      if (negative) {
        buffer[length++] = '-';
      }
      int digits = 1;
      for (long rest = unscaled / 10; rest != 0; rest /= 10) {
        digits++;
      }
      int width = Math.max(digits, scale + 1) + 1; // with the point and a leading 0 if needed
      int point = length + width - 1 - scale;
      for (int i = length + width - 1; i >= length; i--) {
        if (i == point) {
          buffer[i] = '.';
        } else {
          buffer[i] = (char) ('0' + unscaled % 10);
          unscaled /= 10;
        }
      }
      length += width;
    }

    void newline() {
      ensure(1);
      buffer[length++] = '\n';
    }

    void flush() throws IOException {
      out.write(buffer, 0, length);
      length = 0;
      if (outputBroken(out)) {
        throw new IOException(CANNOT_WRITE);
      }
    }

    private void beforeName() {
      if (first[depth]) {
        first[depth] = false;
      } else {
        ensure(1);
        buffer[length++] = ',';
      }
    }

    private void beforeValue() {
      if (afterName) {
        afterName = false;
      } else if (depth > 0) {
        beforeName();
      }
    }

    private void raw(String text) {
      if (text.length() > buffer.length / 2) { // a huge name: straight through
        flushUnchecked();
        out.write(text);
        return;
      }
      ensure(text.length());
      text.getChars(0, text.length(), buffer, length);
      length += text.length();
    }

    private void string(String text) {
      raw('"' + escape(text) + '"');
    }

    private static String escape(String text) {
      StringBuilder escaped = null;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        String replacement =
            switch (c) {
              case '"' -> "\\\"";
              case '\\' -> "\\\\";
              case '\n' -> "\\n";
              case '\r' -> "\\r";
              case '\t' -> "\\t";
              default -> c < 0x20 || c == 0x2028 || c == 0x2029 ? unicode(c) : null;
            };
        if (replacement != null && escaped == null) {
          escaped = new StringBuilder(text.length() + 16).append(text, 0, i);
        }
        if (escaped != null) {
          if (replacement == null) {
            escaped.append(c);
          } else {
            escaped.append(replacement);
          }
        }
      }
      return escaped == null ? text : escaped.toString();
    }

    private static String unicode(char c) {
      return "\\u00" + HEX[c >> 4 & 0xF] + HEX[c & 0xF];
    }

    /** Room for {@code chars} more chars (at most half the buffer): flushes when too full. */
    private void ensure(int chars) {
      if (length + chars > buffer.length) {
        flushUnchecked();
      }
    }

    private void flushUnchecked() {
      try {
        flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e.getMessage(), e);
      }
    }
  }

  /** One CSV row per kernel. */
  private static final class CsvOutput extends Output {
    private final PrintWriter out;
    private String file;

    CsvOutput(PrintWriter out) {
      this.out = out;
    }

    @Override
    void begin() {
      out.print("file,name,uid,instance,cycles,instructions,ipc\n");
    }

    @Override
    void file(Path file) {
      super.file(file);
      this.file = csv(file.toString());
    }

    @Override
    void kernel(KernelStats kernel) {
      out.print(
          file
              + ','
              + csv(kernel.name())
              + ','
              + kernel.uid()
              + ','
              + kernel.instance()
              + ','
              + kernel.cycles()
              + ','
              + kernel.instructions()
              + ','
              + kernel.ipc()
              + '\n');
    }

    @Override
    void endFile(LogOutcome outcome) {}

    private static String csv(String field) {
      if (field.indexOf(',') < 0
          && field.indexOf('"') < 0
          && field.indexOf('\n') < 0
          && field.indexOf('\r') < 0) {
        return field;
      }
      return '"' + field.replace("\"", "\"\"") + '"';
    }
  }

  /** A readable table per file. */
  private static final class TableOutput extends Output {
    private static final String ROW = "%8s %8s %14s %14s %10s  %s%n";

    private final PrintWriter out;
    private boolean firstFile = true;
    private boolean headerPrinted;
    private int kernels;
    private long cycles;
    private long instructions;

    TableOutput(PrintWriter out) {
      this.out = out;
    }

    @Override
    void file(Path file) {
      super.file(file);
      if (!firstFile) {
        out.println();
      }
      firstFile = false;
      headerPrinted = false;
      kernels = 0;
      cycles = 0;
      instructions = 0;
      out.println(file);
    }

    private void header() {
      if (!headerPrinted) {
        headerPrinted = true;
        out.println(
            "  build: Accel-Sim "
                + (accelSimBuild == null ? "(none)" : accelSimBuild)
                + ", GPGPU-Sim "
                + (gpgpuSimBuild == null ? "(none)" : gpgpuSimBuild));
        out.printf(ROW, "uid", "instance", "cycles", "instructions", "ipc", "kernel");
      }
    }

    @Override
    void kernel(KernelStats kernel) {
      header();
      kernels++;
      cycles += kernel.cycles();
      instructions += kernel.instructions();
      out.printf(
          ROW,
          kernel.uid(),
          kernel.instance(),
          kernel.cycles(),
          kernel.instructions(),
          ipc(kernel.ipc()),
          kernel.name());
    }

    @Override
    void endFile(LogOutcome outcome) {
      header();
      out.printf(
          ROW,
          "",
          "total",
          cycles,
          instructions,
          ipc(cycles == 0 ? 0 : (double) instructions / cycles),
          kernels + (kernels == 1 ? " kernel" : " kernels"));
      out.println("  outcome: " + outcome.state().label() + " (" + outcome.reason() + ")");
    }

    private static String ipc(double ipc) {
      return String.format(Locale.ROOT, "%.4f", ipc);
    }
  }
}
