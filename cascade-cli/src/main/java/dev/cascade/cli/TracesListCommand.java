package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cascade traces list}: the traces of a running Cascade, one line each. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "The traces on a running Cascade server, oldest first: id, state, arch, kernels, model,"
          + " traced layers, size and age; samples are marked, failed traces show why.",
      "Exit code 0 when listed, 1 when the server could not be asked, 2 on a usage error."
    })
final class TracesListCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Option(names = "--json", description = "Print the API's JSON: {\"traces\": [...]}.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    ApiClient client = api.client();
    JsonNode answer = client.get("/api/traces");
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Formats.json(answer));
    } else {
      print(out, answer.path("traces"), client, Instant.now());
    }
    out.flush();
    return 0;
  }

  private static void print(PrintWriter out, JsonNode traces, ApiClient client, Instant now) {
    if (traces.isEmpty()) {
      out.println(
          "No traces on "
              + client.baseUrl()
              + "; upload one with: cascade traces push DIR --id ID");
      return;
    }
    TextTable table =
        new TextTable(
            "ID", "STATE", "ARCH", ">KERNELS", "MODEL", ">LAYERS", ">SIZE", ">AGE", "NOTES");
    for (JsonNode trace : traces) {
      String state = Formats.text(trace, "state");
      boolean settled = "ready".equals(state);
      table.row(
          Formats.text(trace, "id"),
          state,
          Formats.text(trace, "trace_gpu_arch"),
          settled ? trace.path("kernel_count").asInt() : null,
          Formats.text(trace, "model_name"),
          trace.path("traced_layers").isEmpty() ? null : trace.path("traced_layers").size(),
          Formats.size(trace.path("size_bytes").asLong()),
          Formats.ago(Formats.text(trace, "created_at"), now),
          notes(trace));
    }
    table.print(out);
  }

  /** What to know besides the columns: a sample, why it failed. */
  static String notes(JsonNode trace) {
    List<String> notes = new ArrayList<>();
    if (trace.path("sample").asBoolean(false)) {
      notes.add("sample: browse only, cannot run");
    }
    String reason = Formats.text(trace, "reason");
    if (reason != null) {
      notes.add(reason);
    }
    return String.join("; ", notes);
  }
}
