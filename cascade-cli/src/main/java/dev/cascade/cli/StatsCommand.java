package dev.cascade.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
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
    Output output =
        format.json ? new JsonOutput(out) : format.csv ? new CsvOutput(out) : new TableOutput(out);
    int exitCode = 0;
    output.begin();
    for (Path file : files) {
      String problem = parse(file, output);
      if (problem != null) {
        err.println("cascade stats: cannot read '" + file + "': " + problem);
        exitCode = 1;
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

    abstract void endFile(LogOutcome outcome);

    void end() throws IOException {}

    @Override
    public void onBuild(BuildString build) {
      if (build.component() == BuildString.Component.ACCEL_SIM && accelSimBuild == null) {
        accelSimBuild = build.build();
      } else if (build.component() == BuildString.Component.GPGPU_SIM && gpgpuSimBuild == null) {
        gpgpuSimBuild = build.build();
      }
    }
  }

  /** The JSON of DESIGN.md section 14, streamed kernel by kernel. */
  private static final class JsonOutput extends Output implements KernelStats.StatVisitor {
    private static final int MAX_CACHED_KEYS = 1 << 16;

    private final JsonGenerator json;
    private final Map<String, SerializableString> keys = new IdentityHashMap<>();
    private boolean fileHeaderWritten;

    JsonOutput(PrintWriter out) throws IOException {
      json = new JsonFactory().createGenerator(out);
      json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    @Override
    void begin() throws IOException {
      json.writeStartObject();
      json.writeArrayFieldStart("files");
    }

    @Override
    void file(Path file) {
      super.file(file);
      fileHeaderWritten = false;
      write(
          () -> {
            json.writeStartObject();
            json.writeStringField("file", file.toString());
          });
    }

    /** The build strings, then the kernels: written once the first kernel (or the end) comes. */
    private void fileHeader() throws IOException {
      if (!fileHeaderWritten) {
        fileHeaderWritten = true;
        json.writeObjectFieldStart("build");
        json.writeStringField("accel_sim", accelSimBuild);
        json.writeStringField("gpgpu_sim", gpgpuSimBuild);
        json.writeEndObject();
        json.writeArrayFieldStart("kernels");
      }
    }

    @Override
    public void onKernelFinished(KernelStats kernel) {
      write(
          () -> {
            fileHeader();
            json.writeStartObject();
            json.writeStringField("name", kernel.name());
            json.writeNumberField("uid", kernel.uid());
            json.writeNumberField("instance", kernel.instance());
            json.writeNumberField("cycles", kernel.cycles());
            json.writeNumberField("instructions", kernel.instructions());
            json.writeNumberField("ipc", kernel.ipc());
            json.writeObjectFieldStart("stats");
            kernel.forEachStat(this);
            json.writeEndObject();
            json.writeEndObject();
          });
    }

    @Override
    public void integer(String key, long value) {
      try {
        json.writeFieldName(key(key));
        json.writeNumber(value);
      } catch (IOException e) {
        throw failed(e);
      }
    }

    @Override
    public void decimal(String key, double value) {
      try {
        json.writeFieldName(key(key));
        json.writeNumber(value);
      } catch (IOException e) {
        throw failed(e);
      }
    }

    /** The key, quoted once: the parser hands out the same String for the same key. */
    private SerializableString key(String key) {
      SerializableString quoted = keys.get(key);
      if (quoted == null) {
        quoted = new SerializedString(key);
        if (keys.size() < MAX_CACHED_KEYS) {
          keys.put(key, quoted);
        }
      }
      return quoted;
    }

    @Override
    void endFile(LogOutcome outcome) {
      write(
          () -> {
            fileHeader();
            json.writeEndArray();
            json.writeBooleanField("complete", outcome.complete());
            json.writeObjectFieldStart("outcome");
            json.writeStringField("state", outcome.state().label());
            json.writeStringField("reason", outcome.reason());
            json.writeEndObject();
            json.writeEndObject();
          });
    }

    @Override
    void end() throws IOException {
      json.writeEndArray();
      json.writeEndObject();
      json.writeRaw('\n');
      json.flush();
    }

    private interface JsonWrite {
      void run() throws IOException;
    }

    private static void write(JsonWrite write) {
      try {
        write.run();
      } catch (IOException e) {
        throw failed(e);
      }
    }

    private static UncheckedIOException failed(IOException e) {
      return new UncheckedIOException("cannot write the JSON output: " + e.getMessage(), e);
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
    public void onKernelFinished(KernelStats kernel) {
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
    public void onKernelFinished(KernelStats kernel) {
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
