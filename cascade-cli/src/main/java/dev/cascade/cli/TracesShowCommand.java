package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Trace;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade traces show ID}: one trace of a running Cascade, with its kernels. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "One trace on a running Cascade server: its facts (state, arch, suggested config, model,"
          + " layers, size) and a line per kernel of its kernelslist.g.",
      "Exit code 0 when shown, 1 when there is no such trace or the server could not be asked,"
          + " 2 on a usage error."
    })
final class TracesShowCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The trace id, as `cascade traces list` shows it.")
  String id;

  @Option(names = "--json", description = "Print the API's JSON of the trace, kernels included.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    if (!Trace.isValidId(id)) {
      throw new ParameterException(
          spec.commandLine(),
          "trace id \""
              + id
              + "\" is not valid: trace ids are 1 to 200 of A-Z a-z 0-9 . _ - (not . or ..)");
    }
    ApiClient client = api.client();
    JsonNode trace = client.get("/api/traces/" + id);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Formats.json(trace));
    } else {
      print(out, trace, Instant.now());
    }
    out.flush();
    return 0;
  }

  private static void print(PrintWriter out, JsonNode trace, Instant now) {
    String state = Formats.text(trace, "state");
    List<String> stateNotes = new ArrayList<>();
    if (trace.path("runnable").asBoolean(false)) {
      stateNotes.add("runnable");
    }
    String notes = TracesListCommand.notes(trace);
    if (!notes.isEmpty()) {
      stateNotes.add(notes);
    }
    out.println("Trace " + Formats.text(trace, "id"));
    TextTable facts = new TextTable("FACT", "VALUE").withoutHeader().indent("  ");
    facts.row(
        "state", state + (stateNotes.isEmpty() ? "" : " (" + String.join("; ", stateNotes) + ")"));
    facts.row("arch", Formats.text(trace, "trace_gpu_arch"));
    facts.row("suggested", Formats.text(trace, "suggested_sim_config"));
    facts.row("model", Formats.text(trace, "model_name"));
    List<String> layers = new ArrayList<>();
    trace.path("traced_layers").forEach(layer -> layers.add(layer.asText()));
    facts.row("layers", layers.isEmpty() ? null : String.join(", ", layers));
    facts.row("kernels", trace.path("kernel_count").asInt());
    facts.row("size", Formats.size(trace.path("size_bytes").asLong()));
    facts.row("created", when(Formats.text(trace, "created_at"), now));
    facts.row("updated", when(Formats.text(trace, "updated_at"), now));
    facts.print(out);

    JsonNode kernels = trace.path("kernels");
    out.println();
    if (kernels.isEmpty()) {
      out.println(
          "No kernels listed"
              + ("ready".equals(state) ? "." : " yet: the trace is " + state + "."));
      return;
    }
    TextTable table =
        new TextTable(">#", "NAME", "GRID", "BLOCK", ">INSTRUCTIONS", "FILE").indent("  ");
    for (JsonNode kernel : kernels) {
      table.row(
          kernel.path("index").asInt(),
          Formats.text(kernel, "name"),
          Formats.text(kernel, "grid"),
          Formats.text(kernel, "block"),
          kernel.path("instructions").isNumber() ? kernel.path("instructions").asLong() : null,
          Formats.text(kernel, "file"));
    }
    table.print(out);
  }

  private static String when(String isoTime, Instant now) {
    return isoTime == null ? null : isoTime + " (" + Formats.ago(isoTime, now) + " ago)";
  }
}
