package dev.cascade.cli;

import dev.cascade.core.KernelNames;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import dev.cascade.core.json.ApiJson;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
      throw Trace.invalidId(id); // the server's own answer, without asking it
    }
    return api.call(
        client -> {
          Trace trace = client.traces().get(id);
          return Printed.answer(
              spec, json, ApiJson.writeTrace(trace, true), out -> print(out, trace, Instant.now()));
        });
  }

  static void print(PrintWriter out, Trace trace, Instant now) {
    String state = trace.state().wireName();
    List<String> stateNotes = new ArrayList<>();
    if (trace.runnable()) {
      stateNotes.add("runnable");
    }
    String notes = TracesListCommand.notes(trace);
    if (!notes.isEmpty()) {
      stateNotes.add(notes);
    }
    out.println("Trace " + trace.id());
    TextTable facts = new TextTable("FACT", "VALUE").withoutHeader().indent("  ");
    facts.row(
        "state", state + (stateNotes.isEmpty() ? "" : " (" + String.join("; ", stateNotes) + ")"));
    facts.row("arch", trace.traceGpuArch());
    facts.row("suggested", trace.suggestedSimConfig());
    facts.row("model", trace.modelName());
    facts.row(
        "layers", trace.tracedLayers().isEmpty() ? null : String.join(", ", trace.tracedLayers()));
    facts.row("kernels", trace.kernelCount());
    facts.row("size", Formats.size(trace.sizeBytes()));
    facts.row("created", when(trace.createdAt(), now));
    facts.row("updated", when(trace.updatedAt(), now));
    facts.print(out);

    out.println();
    if (trace.kernels().isEmpty()) {
      out.println(
          "No kernels listed"
              + (trace.state() == TraceState.READY ? "." : " yet: the trace is " + state + "."));
      return;
    }
    TextTable table =
        new TextTable(">#", "NAME", "GRID", "BLOCK", ">WARP INSN (TRACE)", "FILE").indent("  ");
    Map<String, String> readable =
        KernelNames.system().readable(trace.kernels().stream().map(TraceKernel::name).toList());
    for (TraceKernel kernel : trace.kernels()) {
      table.row(
          kernel.index(),
          readable.get(kernel.name()),
          kernel.grid(),
          kernel.block(),
          kernel.instructions(),
          kernel.file());
    }
    table.print(out);
  }

  private static String when(Instant time, Instant now) {
    return time + " (" + Formats.ago(time.toString(), now) + " ago)";
  }
}
