package dev.cascade.cli;

import dev.cascade.core.SkippedFolder;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.json.ApiJson;
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
    return api.call(
        client -> {
          List<Trace> traces = client.traces().list();
          List<SkippedFolder> skipped = client.traces().skippedFolders();
          return Printed.answer(
              spec,
              json,
              ApiJson.writeTraceList(traces, skipped),
              out -> {
                print(out, traces, client.url(), Instant.now());
                for (SkippedFolder folder : skipped) {
                  out.println("not a trace: \"" + folder.name() + "\": " + folder.reason());
                }
              });
        });
  }

  private static void print(PrintWriter out, List<Trace> traces, String url, Instant now) {
    if (traces.isEmpty()) {
      out.println("No traces on " + url + "; upload one with: cascade traces push DIR --id ID");
      return;
    }
    TextTable table =
        new TextTable(
            "ID", "STATE", "ARCH", ">KERNELS", "MODEL", ">LAYERS", ">SIZE", ">AGE", "NOTES");
    for (Trace trace : traces) {
      table.row(
          trace.id(),
          trace.state().wireName(),
          trace.traceGpuArch(),
          trace.state() == TraceState.READY ? trace.kernelCount() : null,
          trace.modelName(),
          trace.tracedLayers().isEmpty() ? null : trace.tracedLayers().size(),
          Formats.size(trace.sizeBytes()),
          Formats.ago(trace.createdAt().toString(), now),
          notes(trace));
    }
    table.print(out);
  }

  /** What to know besides the columns: a sample, why it failed. */
  static String notes(Trace trace) {
    List<String> notes = new ArrayList<>();
    if (trace.sample()) {
      notes.add("sample: browse only, cannot run");
    }
    if (trace.reason() != null) {
      notes.add(trace.reason());
    }
    return String.join("; ", notes);
  }
}
