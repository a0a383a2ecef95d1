package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade runs show ID}: one run of a running Cascade and every sim of it. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "One run on a running Cascade server: its state, and per sim its config, replica, state,"
          + " kernels done / total, current kernel, heartbeat age and error.",
      "Exit code 0 when shown, 1 when there is no such run or the server could not be asked,"
          + " 2 on a usage error."
    })
final class RunsShowCommand implements Callable<Integer> {

  private static final int KERNEL_WIDTH = 40;

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id, as `cascade runs list` shows it.")
  String id;

  @Option(names = "--json", description = "Print the API's JSON of the run, sims included.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    JsonNode run = api.client().get("/api/runs/" + runId);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Formats.json(run));
    } else {
      print(out, run, Instant.now());
    }
    out.flush();
    return 0;
  }

  static void print(PrintWriter out, JsonNode run, Instant now) {
    out.println(
        "Run "
            + Formats.text(run, "id")
            + " on trace "
            + Formats.text(run, "trace_id")
            + ": "
            + Formats.text(run, "state"));
    String created = Formats.text(run, "created_at");
    TextTable facts = new TextTable("FACT", "VALUE").withoutHeader().indent("  ");
    facts.row(
        "created", created == null ? null : created + " (" + Formats.ago(created, now) + " ago)");
    facts.row("entries", RunsListCommand.entries(run));
    facts.row("sims", run.path("sims").size() + ": " + byState(run.path("sims")));
    facts.print(out);
    out.println();
    TextTable sims =
        new TextTable(
                "CONFIG", ">REPLICA", "STATE", ">KERNELS", "CURRENT", ">HEARTBEAT", "SIM", "ERROR")
            .indent("  ");
    for (JsonNode sim : run.path("sims")) {
      sims.row(
          Formats.text(sim, "gpu_config"),
          sim.path("replica").asInt(),
          Formats.text(sim, "state"),
          sim.path("kernels_done").asInt() + "/" + sim.path("kernels_total").asInt(),
          Formats.shorten(Formats.text(sim, "current_kernel"), KERNEL_WIDTH),
          heartbeat(Formats.number(sim, "heartbeat_age_s")),
          Formats.text(sim, "id"),
          Formats.text(sim, "error"));
    }
    sims.print(out);
  }

  /** Sims by state in the order they come: {@code running 2, succeeded 1}. */
  static String byState(JsonNode sims) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (JsonNode sim : sims) {
      counts.merge(Formats.text(sim, "state"), 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((state, count) -> parts.add(state + " " + count));
    return String.join(", ", parts);
  }

  /** A heartbeat age as {@code 1.4s ago}; {@code none yet} before the first. */
  static String heartbeat(Double ageSeconds) {
    return ageSeconds == null ? "none yet" : Formats.seconds(ageSeconds) + " ago";
  }
}
