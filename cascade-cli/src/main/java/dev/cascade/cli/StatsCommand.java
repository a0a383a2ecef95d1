package dev.cascade.cli;

import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.StatsCsv;
import dev.cascade.accelsim.stats.StatsJson;
import dev.cascade.accelsim.stats.StatsWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cascade stats FILE... [--json|--csv]}: parses Accel-Sim simulator output offline and
 * prints every kernel's cycles, instructions and IPC (and, with {@code --json}, every numeric
 * statistic of its block). Streams: each file is read through a 1 MiB buffer and each kernel is
 * printed as soon as its block ends, so memory stays small whatever the file size. The formats are
 * cascade-accelsim's {@link StatsJson} and {@link StatsCsv}; the table is {@link StatsTable}.
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

    @Option(
        names = "--get-stats",
        description =
            "Print Accel-Sim's get_stats.py -k -K CSV (a section per statistic, a row per"
                + " APP/ARGS--KERNEL--INSTANCE, a column per config), for merge-stats.py and"
                + " plot-get-stats.py; see -R, --app, --args, --config, --stats-yml, -I.")
    boolean getStats;
  }

  @Mixin GetStatsOutput getStatsOutput = new GetStatsOutput();

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (format.getStats) {
      return getStatsOutput.write(files, out, err);
    }
    if (getStatsOutput.used()) {
      throw new ParameterException(
          spec.commandLine(), "-R, --app, --args, --config, --stats-yml and -I need --get-stats");
    }
    // JSON encoding costs about as much as parsing: it runs on a second thread.
    StatsWriter writer =
        format.json
            ? new BackgroundStatsWriter(new StatsJson(new FailingWriter(out)))
            : format.csv ? new StatsCsv(out) : new StatsTable(out);
    int exitCode = 0;
    writer.begin();
    for (Path file : files) {
      String problem = parse(file, writer);
      if (problem != null) {
        err.println("cascade stats: cannot read '" + file + "': " + problem);
        exitCode = 1; // a failure to read one file, the others printed: not a usage error
      }
      if (!format.json && outputBroken(out)) {
        throw new IOException(CANNOT_WRITE);
      }
    }
    writer.end();
    out.flush();
    return exitCode;
  }

  /** Parses one file into {@code writer}; returns why it could not be read, or null. */
  private static String parse(Path file, StatsWriter writer) throws IOException {
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
    writer.beginFile(file.toString());
    KernelStatsParser parser = new KernelStatsParser(writer);
    try (channel) {
      parser.feed(channel);
    } catch (IOException e) {
      problem = reason(e) + " (the kernels before the error are printed)";
    }
    writer.endFile(parser.finish());
    return problem;
  }

  /**
   * True when writing failed, so there is no point going on (as with {@code cascade stats big.log |
   * head}). PrintWriter and PrintStream hide write errors; the default output wraps System.out.
   */
  private static boolean outputBroken(PrintWriter out) {
    return out.checkError() || System.out.checkError();
  }

  static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file; check the path";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /**
   * The output as a Writer whose flush throws when writing failed: {@link StatsJson} flushes every
   * 64 K chars, so a closed pipe stops the parsing early.
   */
  private static final class FailingWriter extends Writer {
    private final PrintWriter out;

    FailingWriter(PrintWriter out) {
      this.out = out;
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      out.write(chars, offset, length);
    }

    @Override
    public void write(String text) {
      out.write(text);
    }

    @Override
    public void flush() throws IOException {
      if (outputBroken(out)) { // checkError flushes first
        throw new IOException(CANNOT_WRITE);
      }
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
