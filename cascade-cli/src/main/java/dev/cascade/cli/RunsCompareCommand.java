package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Measure;
import dev.cascade.core.RunComparisons;
import dev.cascade.core.json.CompareJson;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cascade runs compare A B [C...]}: runs against the first, per config both have, per kernel
 * and in total, as {@code GET /api/compare} gives it.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compare runs with the first (the baseline): for each config both runs have, per kernel and"
          + " in total, the change in core-clock cycles, thread-level IPC and simulated time, with"
          + " the spread test (a change whose replica ranges overlap is the same within spread),"
          + " and which inputs differ: trace, config content, simulator, simulator build."
          + " --measure adds any statistic the simulator printed.",
      "Exit code 0 when shown, 1 when a run is unknown or has no results or the server could not"
          + " be asked, 2 on a usage error."
    })
final class RunsCompareCommand implements Callable<Integer> {

  private static final int KERNEL_WIDTH = 48;

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(
      paramLabel = "RUN",
      arity = "2..*",
      description = "The run ids, the baseline first (2 to " + RunComparisons.MAX_RUNS + ").")
  List<String> ids;

  @Option(names = "--json", description = "Print the API's JSON of the comparison.")
  boolean json;

  @Option(
      names = "--measure",
      paramLabel = "NAME",
      description =
          "Also compare this statistic (repeatable): any the simulator printed, by its own name,"
              + " with both runs' spreads, the difference and the spread test; NAME:change,"
              + " NAME:sum, NAME:mean, NAME:max, NAME:last as for cascade runs results --help.")
  List<String> measureNames = new ArrayList<>();

  @Override
  public Integer call() throws InterruptedException {
    List<String> runIds = new ArrayList<>();
    for (String id : ids) {
      runIds.add(RunsCommand.requireRunId(spec, id));
    }
    List<Measure> measures = MeasureOptions.parse(spec, measureNames);
    return api.call(
        client -> {
          Map<String, Object> comparison =
              CompareJson.write(
                  RunComparisons.compare(client.runs(), client.results(), runIds, measures));
          return Printed.answer(
              spec, json, comparison, out -> print(out, Printed.tree(comparison)));
        });
  }

  /** The comparison as {@code CompareJson.write} writes it, for people. */
  static void print(PrintWriter out, JsonNode comparison) {
    String baseline = Formats.text(comparison, "baseline");
    out.println(
        "Runs against baseline "
            + baseline
            + ": change = run mean - baseline mean over succeeded replicas; the same within"
            + " spread when the replica ranges [min..max] overlap");
    for (JsonNode run : comparison.path("runs")) {
      out.println(
          "  "
              + Formats.text(run, "run_id")
              + (Formats.text(run, "run_id").equals(baseline) ? " (baseline)" : "")
              + ": trace "
              + Formats.text(run, "trace_id")
              + ", "
              + Formats.text(run, "state")
              + (run.path("partial").asBoolean() ? ", results partial (still running)" : ""));
    }
    JsonNode measures = comparison.path("measures");
    out.println("  cycles: " + Formats.text(measures, "cycles"));
    out.println("  IPC: " + Formats.text(measures, "ipc"));
    out.println("  time: " + Formats.text(measures, "simulated_time_us"));
    List<String> extra = extraMeasures(comparison);
    for (String id : extra) {
      out.println("  " + id + ": " + Formats.text(measures, id));
    }
    for (JsonNode change : comparison.path("changes")) {
      String runId = Formats.text(change, "run_id");
      out.println();
      out.println(runId + " against " + baseline + ":");
      if (!change.path("only_in_baseline").isEmpty()) {
        out.println("  only in " + baseline + ": " + joined(change.path("only_in_baseline")));
      }
      if (!change.path("only_in_run").isEmpty()) {
        out.println("  only in " + runId + ": " + joined(change.path("only_in_run")));
      }
      if (change.path("configs").isEmpty()) {
        out.println("  no config in both runs: nothing to compare");
      }
      for (JsonNode config : change.path("configs")) {
        printConfig(out, config, extra);
      }
    }
  }

  /** The ids of the measures compared beyond cycles, IPC and simulated time, in order. */
  private static List<String> extraMeasures(JsonNode comparison) {
    List<String> ids = new ArrayList<>();
    comparison
        .path("measures")
        .fieldNames()
        .forEachRemaining(
            id -> {
              if (!RunComparisons.FIXED_MEASURES.contains(id)) {
                ids.add(id);
              }
            });
    return ids;
  }

  private static void printConfig(PrintWriter out, JsonNode config, List<String> extra) {
    out.println();
    JsonNode differs = config.path("differs");
    out.println(
        "  "
            + Formats.text(config, "gpu_config")
            + ": "
            + (differs.isEmpty() ? "no input known to differ" : "differs: " + joined(differs)));
    TextTable inputs = new TextTable("INPUT", "STATUS", "BASELINE", "RUN").indent("    ");
    for (JsonNode input : config.path("inputs")) {
      inputs.row(
          Formats.text(input, "input"),
          Formats.text(input, "status"),
          Formats.text(input, "baseline"),
          Formats.text(input, "run"));
    }
    inputs.print(out);
    List<String> columns =
        new ArrayList<>(
            List.of(
                "KERNEL",
                ">CYCLES (BASELINE)",
                ">CYCLES (RUN)",
                "CYCLES CHANGE",
                ">THREAD IPC",
                "IPC CHANGE",
                ">SIM TIME (us)",
                "TIME CHANGE"));
    for (String id : extra) {
      columns.add(">" + id);
      columns.add(id + " CHANGE");
    }
    TextTable table = new TextTable(columns.toArray(String[]::new)).indent("    ");
    for (JsonNode kernel : config.path("kernels")) {
      addRow(table, kernelName(kernel), kernel, extra);
    }
    addRow(table, "total", config.path("total"), extra);
    out.println();
    table.print(out);
    for (JsonNode note : config.path("notes")) {
      out.println("    note: " + note.asText());
    }
  }

  private static void addRow(TextTable table, String name, JsonNode row, List<String> extra) {
    JsonNode cycles = row.path("cycles");
    JsonNode ipc = row.path("ipc");
    JsonNode time = row.path("simulated_time_us");
    List<Object> cells =
        new ArrayList<>(
            List.of(
                name,
                mean(cycles.path("baseline"), 0),
                mean(cycles.path("run"), 0),
                change(cycles, 0),
                cycles.isObject()
                    ? mean(ipc.path("baseline"), 3) + " -> " + mean(ipc.path("run"), 3)
                    : "-",
                change(ipc, 3),
                time.isObject()
                    ? mean(time.path("baseline"), 3) + " -> " + mean(time.path("run"), 3)
                    : "-",
                change(time, 3)));
    for (String id : extra) {
      JsonNode measure = row.path(id);
      int decimals = wholeNumbers(measure) ? 0 : 4;
      cells.add(
          measure.isObject()
              ? mean(measure.path("baseline"), decimals)
                  + " -> "
                  + mean(measure.path("run"), decimals)
              : "-");
      cells.add(change(measure, decimals));
    }
    table.row(cells.toArray());
  }

  /**
   * True when both sides' means and ranges are whole numbers (counts), printed without decimals.
   */
  private static boolean wholeNumbers(JsonNode change) {
    for (String side : List.of("baseline", "run")) {
      for (String field : List.of("mean", "min", "max")) {
        double value = change.path(side).path(field).asDouble();
        if (value != Math.rint(value)) {
          return false;
        }
      }
    }
    return true;
  }

  private static String mean(JsonNode summary, int decimals) {
    return summary.isObject() ? Formats.decimal(summary.path("mean").asDouble(), decimals) : "-";
  }

  /** {@code -200 (-19.9%) 1.25x faster}, {@code +0.741 (+24.8%) higher}, {@code +0 same ...}. */
  static String change(JsonNode change, int decimals) {
    if (!change.isObject()) {
      return "-";
    }
    double difference = change.path("difference").asDouble();
    StringBuilder text =
        new StringBuilder(difference >= 0 ? "+" : "").append(Formats.decimal(difference, decimals));
    if (change.path("relative").isNumber()) {
      text.append(
          String.format(Locale.ROOT, " (%+.1f%%)", 100 * change.path("relative").asDouble()));
    }
    JsonNode speedup = change.path("speedup");
    if (speedup.isObject()) {
      text.append(' ').append(RunsResultsCommand.speedup(speedup));
    } else {
      text.append(' ').append(change.path("direction").asText().replace('_', ' '));
    }
    return text.toString();
  }

  private static String kernelName(JsonNode kernel) {
    String name = Formats.text(kernel, "readable_name");
    String shown =
        Formats.shorten(name == null ? Formats.text(kernel, "name") : name, KERNEL_WIDTH);
    int instance = kernel.path("instance").asInt(0);
    return instance == 0 ? shown : shown + "#" + instance;
  }

  private static String joined(JsonNode names) {
    List<String> all = new ArrayList<>();
    names.forEach(name -> all.add(name.asText()));
    return String.join(", ", all);
  }
}
