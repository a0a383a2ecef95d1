package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.GetStatsMeasures;
import dev.cascade.core.Measure;
import dev.cascade.core.Run;
import dev.cascade.core.json.ResultsJson;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * {@code cascade runs results ID}: the run's comparison, per GPU config, per kernel and in total:
 * cycles, the simulator's thread instructions, IPC and simulated time as mean ± stdev [min..max]
 * across the config's succeeded replicas, and the speedup over the baseline config.
 */
@Command(
    name = "results",
    mixinStandardHelpOptions = true,
    description = {
      "Compare a run's GPU configs: per config, per kernel and in total, cycles, thread"
          + " instructions (the simulator's gpu_sim_insn), IPC and simulated time (cycles / core"
          + " clock) as mean ± stdev [min..max] across the config's succeeded replicas, and the"
          + " speedup over the baseline config in cycles and in time. A speedup whose replica"
          + " ranges overlap the baseline's is shown as the same within spread, not ranked."
          + " Readable while the run goes on: it shows what has finished so far.",
      "Exit code 0 when shown, 1 when there is no such run or the server could not be asked,"
          + " 2 on a usage error."
    })
final class RunsResultsCommand implements Callable<Integer> {

  private static final int KERNEL_WIDTH = 64;

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id.")
  String id;

  @Option(
      names = "--baseline",
      paramLabel = "CONFIG",
      description = "The GPU config the others are compared with (default the run's first).")
  String baseline;

  @Option(
      names = "--measure",
      paramLabel = "NAME",
      description = {
        "Also compare this statistic (repeatable): any the simulator printed in a kernel's block,"
            + " by its own name (L2_total_cache_miss_rate), with its spread across replicas and"
            + " its change from the baseline; NAME:change for a running total's change per"
            + " kernel; NAME:sum, NAME:mean, NAME:max or NAME:last to choose how the whole trace"
            + " is made from the kernels' values (default: the value printed with the last"
            + " kernel). Not with --tidy-csv or --get-stats, which have every statistic."
      })
  List<String> measureNames = new ArrayList<>();

  @Option(
      names = "--measures-from",
      paramLabel = "FILE",
      description =
          "Also compare the statistics of an Accel-Sim stats file (example_stats.yml, what"
              + " get_stats.py -s takes): collect_aggregate as NAME:change, collect_abs as"
              + " NAME:mean, collect_rates as NAME; one the run's kernels did not print as a number"
              + " is dropped with a note on stderr.")
  Path measuresFrom;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Format format = new Format();

  static final class Format {
    @Option(names = "--json", description = "Print the API's JSON of the results.")
    boolean json;

    @Option(
        names = "--csv",
        description =
            "Print the API's CSV: a row per config and kernel, and a total row per config, with"
                + " _mean, _stdev, _min and _max columns per measure.")
    boolean csv;

    @Option(
        names = "--tidy-csv",
        description =
            "Print the tidy CSV for pandas: a row per sim and finished kernel, every numeric"
                + " statistic a column.")
    boolean tidyCsv;

    @Option(
        names = "--get-stats",
        description =
            "Print the succeeded sims in Accel-Sim's get_stats.py -k -K CSV (app = trace, args ="
                + " replica_N, config = GPU config), for merge-stats.py and plot-get-stats.py.")
    boolean getStats;
  }

  @Option(
      names = {"-R", "--configs-as-rows"},
      description = "With --get-stats: configs as rows, kernels as columns (get_stats.py -R).")
  boolean configsAsRows;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    List<Measure> asked = MeasureOptions.parse(spec, measureNames);
    GetStatsMeasures set = MeasureOptions.readSet(spec, measuresFrom);
    if ((!asked.isEmpty() || set != null) && (format.tidyCsv || format.getStats)) {
      throw new ParameterException(
          spec.commandLine(),
          "--measure and --measures-from do not go with --tidy-csv or --get-stats: they have"
              + " every statistic");
    }
    return api.call(
        client -> {
          List<Measure> measures =
              set == null
                  ? asked
                  : MeasureOptions.withSet(
                      asked,
                      set,
                      client.runs(),
                      client.runs().get(runId),
                      spec.commandLine().getErr());
          if (format.csv || format.tidyCsv || format.getStats) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(
                format.tidyCsv
                    ? client.results().simsCsv(runId)
                    : format.getStats
                        ? client.results().getStatsCsv(runId, configsAsRows)
                        : client.results().csv(runId, baseline, measures));
            out.flush();
            return 0;
          }
          Run run = client.runs().get(runId);
          Map<String, Object> results =
              ResultsJson.writeResults(
                  run, client.results().compare(runId, measures), baseline, measures);
          return Printed.answer(
              spec,
              format.json,
              results,
              out -> {
                print(out, Printed.tree(results));
                CorrelationTable.print(out, () -> client.results().correlate(runId));
              });
        });
  }

  /** The results as {@code ResultsJson.writeResults} writes them, for people. */
  static void print(PrintWriter out, JsonNode results) {
    out.println(
        "Results of run "
            + Formats.text(results, "run_id")
            + " on trace "
            + Formats.text(results, "trace_id")
            + " ("
            + Formats.text(results, "state")
            + "): mean ± stdev [min..max] across succeeded replicas; speedups against "
            + Formats.text(results, "baseline")
            + " (baseline mean / config mean; the same within spread when the replica ranges"
            + " overlap)");
    if (results.path("partial").asBoolean()) {
      // A kernel row counts running replicas' finished kernels; a total only succeeded ones.
      out.println(
          "PARTIAL RESULTS, "
              + Formats.text(results.path("progress"), "summary")
              + " (kernel rows include running replicas' finished kernels; totals only"
              + " succeeded replicas)");
    }
    JsonNode configs = results.path("configs");
    String baseline = Formats.text(results, "baseline");
    List<String> extra = extraMeasures(results);
    out.println();
    out.println("Whole trace, per GPU config:");
    TextTable totals = measuresTable("CONFIG", extra).indent("  ");
    for (JsonNode config : configs) {
      String name = Formats.text(config, "gpu_config");
      addRow(totals, name, config.path("total"), name.equals(baseline), extra);
    }
    totals.print(out);
    for (JsonNode config : configs) {
      out.println();
      out.println(header(config));
      JsonNode kernels = config.path("kernels");
      boolean isBaseline = Formats.text(config, "gpu_config").equals(baseline);
      if (kernels.isEmpty()) {
        String state = Formats.text(results, "state");
        out.println(
            "active".equals(state)
                ? "  no kernel results yet: no replica of it has finished a kernel"
                : "  no kernel results: no replica of it succeeded (the run is " + state + ")");
      } else {
        TextTable table = measuresTable("KERNEL", extra).indent("  ");
        for (JsonNode kernel : kernels) {
          addRow(table, kernelName(kernel), kernel, isBaseline, extra);
        }
        addRow(table, "total", config.path("total"), isBaseline, extra);
        table.print(out);
      }
      for (JsonNode note : config.path("notes")) {
        out.println("  note: " + note.asText());
      }
    }
    for (JsonNode measure : results.path("measures")) {
      if (!measure.path("default").asBoolean(true)) {
        out.println();
        out.println(Formats.text(measure, "id") + ": " + Formats.text(measure, "counts"));
      }
    }
  }

  /** The ids of the results' measures beyond the four every table has. */
  private static List<String> extraMeasures(JsonNode results) {
    List<String> ids = new ArrayList<>();
    for (JsonNode measure : results.path("measures")) {
      if (!measure.path("default").asBoolean(true)) {
        ids.add(Formats.text(measure, "id"));
      }
    }
    return ids;
  }

  private static TextTable measuresTable(String first, List<String> extra) {
    List<String> columns =
        new ArrayList<>(
            List.of(
                first,
                ">N",
                "CYCLES",
                "THREAD INSN (SIM)",
                "IPC",
                "SIM TIME (us)",
                "SPEEDUP (CYCLES)",
                "SPEEDUP (TIME)"));
    for (String id : extra) {
      columns.add(id);
      columns.add(id + " VS BASELINE");
    }
    return new TextTable(columns.toArray(String[]::new));
  }

  /** A row; the baseline's own speedups (all 1) read {@code baseline}. */
  private static void addRow(
      TextTable table, String name, JsonNode row, boolean isBaseline, List<String> extra) {
    JsonNode speedup = row.path("speedup");
    List<Object> cells =
        new ArrayList<>(
            List.of(
                name,
                row.path("n").asInt(),
                Formats.spread(row.path("cycles"), 0),
                Formats.spread(row.path("instructions"), 0),
                Formats.spread(row.path("ipc"), 3),
                Formats.spread(row.path("simulated_time_us"), 3),
                isBaseline ? "baseline" : speedup(speedup.path("cycles")),
                isBaseline ? "baseline" : speedup(speedup.path("simulated_time"))));
    for (String id : extra) {
      JsonNode spread = row.path(id);
      cells.add(Formats.spread(spread, wholeNumbers(spread) ? 0 : 4));
      cells.add(isBaseline ? "baseline" : change(row.path("versus_baseline").path(id)));
    }
    table.row(cells.toArray());
  }

  private static boolean wholeNumbers(JsonNode spread) {
    for (JsonNode value : spread.path("values")) {
      if (value.asDouble() != Math.rint(value.asDouble())) {
        return false;
      }
    }
    return true;
  }

  /** {@code 0.93x lower, better}, {@code 1.00x same within spread}, or {@code -}. */
  static String change(JsonNode change) {
    if (!change.isObject()) {
      return "-";
    }
    String direction = change.path("direction").asText().replace('_', ' ');
    String verdict = change.path("verdict").isTextual() ? change.path("verdict").asText() : null;
    String ratio =
        change.path("ratio").isNumber()
            ? String.format(Locale.ROOT, "%.2fx ", change.path("ratio").asDouble())
            : "";
    return ratio
        + direction
        + (verdict == null || verdict.equals("same_within_spread") ? "" : ", " + verdict);
  }

  /** {@code 1.25x faster}, {@code 0.80x slower}, {@code 1.00x same within spread}, or {@code -}. */
  static String speedup(JsonNode ratio) {
    if (!ratio.isObject()) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.2fx", ratio.path("ratio").asDouble())
        + " "
        + ratio.path("verdict").asText().replace('_', ' ');
  }

  /** {@code SM90_H100 sm_90, 1980 MHz: 2 of 2 replicas succeeded}. */
  private static String header(JsonNode config) {
    Double clock = Formats.number(config, "clock_mhz");
    return Formats.text(config, "gpu_config")
        + "  "
        + (Formats.text(config, "arch") == null ? "unknown arch" : Formats.text(config, "arch"))
        + ", "
        + (clock == null ? "unknown clock" : Formats.decimal(clock, 0) + " MHz")
        + ": "
        + config.path("succeeded").asInt()
        + " of "
        + config.path("replicas").asInt()
        + " replicas succeeded";
  }

  /**
   * The kernel's readable (demangled) name, shortened in the middle past {@value #KERNEL_WIDTH}
   * characters (the JSON and CSV have the symbol whole); {@code name#2} for its launch with
   * instance 2 (the third of that name), as the UI, CSV and JSON {@code label} name it.
   */
  private static String kernelName(JsonNode kernel) {
    int instance = kernel.path("instance").asInt(0);
    String name = Formats.text(kernel, "readable_name");
    String shown =
        Formats.shorten(name == null ? Formats.text(kernel, "name") : name, KERNEL_WIDTH);
    return instance == 0 ? shown : String.format(Locale.ROOT, "%s#%d", shown, instance);
  }
}
