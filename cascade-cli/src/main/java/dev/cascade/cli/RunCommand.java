package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cascade.client.CascadeClient;
import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.CascadeServer;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GetStatsMeasures;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.Measure;
import dev.cascade.core.Run;
import dev.cascade.core.RunState;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.Sim;
import dev.cascade.core.SimCommands;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.json.CorrelationJson;
import dev.cascade.core.json.ResultsJson;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cascade run}: the one-shot job. An embedded Cascade (with an HTTP server on a free
 * loopback port for its sims to report to) runs one trace on the configs asked for, shows each
 * sim's progress live, prints the comparison, and exits 0 when every sim succeeded.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run a trace on GPU configs here and now, show progress, and print the comparison.",
      "TRACE is a trace id in the data dir, or a folder holding a trace (metadata.json and"
          + " traces/, or a bare folder with kernelslist.g).",
      "Without Accel-Sim ($CASCADE_ACCELSIM_DIR) each sim runs Cascade's emulator at "
          + SimCommands.DEMO_SPEED
          + " simulated cycles per second ($CASCADE_EMULATE_SPEED), so a demo sim takes about 15 s"
          + " and its progress shows. For many sims, CASCADE_EMULATE_SPEED=0 runs them as fast"
          + " as they can."
    })
final class RunCommand implements Callable<Integer> {

  private static final Duration TRACE_READY_TIMEOUT = Duration.ofMinutes(10);
  private static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

  /** Told before the progress lines; see {@link #cancelOnInterrupt}. */
  static final String INTERRUPT_NOTE = "Ctrl-C cancels the run and stops its sims";

  /** The exit code of a process ended by SIGINT (128 + 2), as the shell reports Ctrl-C. */
  private static final int INTERRUPTED = 130;

  @Spec CommandSpec spec;

  /** The environment settings come from; tests replace it. */
  Map<String, String> environment = CliEnvironment.current();

  @Mixin RunRequestArguments request;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Where to keep the run (default $CASCADE_DATA_DIR, else ./data; a trace folder without"
              + " --data-dir runs in a temporary one).")
  Path dataDir;

  @Option(names = "--json", description = "Print the results as JSON (progress goes to stderr).")
  boolean json;

  @Option(
      names = "--baseline",
      paramLabel = "CONFIG",
      description =
          "The GPU config the others are compared with: speedups per kernel and in total"
              + " (default the first config).")
  String baseline;

  @Option(
      names = "--measure",
      paramLabel = "NAME",
      description =
          "Also compare this statistic (repeatable): any the simulator printed, by its own name;"
              + " see cascade runs results --help.")
  List<String> measureNames = new ArrayList<>();

  private List<Measure> measures = List.of();

  @Option(
      names = "--measures-from",
      paramLabel = "FILE",
      description =
          "Also compare the statistics of an Accel-Sim stats file (example_stats.yml); see"
              + " cascade runs results --help.")
  Path measuresFrom;

  private GetStatsMeasures measureSet;

  @Option(
      names = "--plain",
      description = "Print a line per change instead of redrawing progress in place.")
  boolean plain;

  @Option(
      names = "--local-slots",
      paramLabel = "N",
      description =
          "How many sims run at once; the others wait their turn (default $CASCADE_LOCAL_SLOTS,"
              + " else one per core).")
  Integer localSlots;

  @Override
  public Integer call() throws Exception {
    request.runEntries(); // a bad --time-limit, --owner or --priority is refused before anything
    request.options();
    measures = MeasureOptions.parse(spec, measureNames);
    measureSet = MeasureOptions.readSet(spec, measuresFrom);
    // A one-shot job shows its own progress; the app's INFO lines would only clutter it.
    if (System.getProperty(LOG_LEVEL) == null) {
      System.setProperty(LOG_LEVEL, "warn");
    }
    if (baseline != null
        && request.runEntries().stream()
            .flatMap(e -> e.expand().stream())
            .noneMatch(e -> e.name().equals(baseline))) {
      throw new ParameterException(
          spec.commandLine(),
          "--baseline \""
              + baseline
              + "\" is not one of the run's GPU configs ("
              + request.entriesText()
              + "); name one of them");
    }
    Map<String, String> environment = this.environment;
    request.runEntries(); // a count out of range is refused before anything starts
    boolean folder = TraceImport.isFolder(request.trace);
    if (!folder && TraceImport.looksLikePath(request.trace)) {
      throw new CascadeException(
          ErrorCode.NOT_FOUND,
          "there is no folder \""
              + request.trace
              + "\"; give a folder holding a trace, or a trace id",
          "trace");
    }
    Path data;
    Path temporary = null;
    if (folder && dataDir == null) {
      temporary = Files.createTempDirectory("cascade-run-");
      data = temporary;
    } else {
      data = AppSetup.dataDir(dataDir, environment);
      AppSetup.seedIfNew(data);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter progress = json ? spec.commandLine().getErr() : out;
    try {
      String traceId =
          folder
              ? TraceImport.into(
                  data.resolve("s3").resolve("cascade").resolve("accelsim-traces"),
                  Path.of(request.trace))
              : request.trace;
      return runOn(environment, data, temporary == null, traceId, out, progress);
    } finally {
      if (temporary != null) {
        TraceImport.deleteQuietly(temporary);
      }
    }
  }

  private int runOn(
      Map<String, String> environment,
      Path data,
      boolean dataKept,
      String traceId,
      PrintWriter out,
      PrintWriter progress)
      throws Exception {
    SimCommands.Choice sims = CascadeSettings.simCommandFromEnvironment(environment, data);
    try (Cascade cascade =
        AppSetup.localSlots(
                AppSetup.cascade(
                    environment, data, "local", sims, ServerSettings.defaults().withPort(0)),
                localSlots)
            // The trace is complete on disk already: no upload to wait out.
            .uploadQuietPeriod(Duration.ofMillis(200))
            .traceRescanInterval(Duration.ofMillis(200))
            .finishedStopDelay(Duration.ofSeconds(2))
            .build()
            .start()) {
      CascadeServer server = cascade.server().orElseThrow();
      Trace ready = awaitReady(cascade, traceId, progress);
      Run run = cascade.runs().create(ready.id(), request.runEntries(), request.options());
      AtomicBoolean interrupted = new AtomicBoolean();
      Thread cancelOnExit = cancelOnInterrupt(cascade, run.id(), progress, interrupted);
      Runtime.getRuntime().addShutdownHook(cancelOnExit);
      try {
        progress.println(
            "Running trace "
                + ready.id()
                + " ("
                + Printed.count(ready.kernelCount(), "kernel")
                + ") on "
                + request.entriesText()
                + " with "
                + sims.description());
        progress.flush();
        CascadeClient client = CascadeClient.connect(URI.create(server.url()), null);
        boolean interactive = !plain && !json && RunWatcher.isTerminal();
        RunWatcher watcher = new RunWatcher(client, run.id(), progress, interactive);
        watcher.interruptNote = INTERRUPT_NOTE;
        watcher.suggestResults = dataKept;
        watcher.endedByCaller = interrupted::get;
        watcher.watch();
        if (interrupted.get()) {
          cancelOnExit.join(); // it cancels on this Cascade and says so: keep it open until then
          return INTERRUPTED;
        }
        Run finished = cascade.runs().await(run.id(), Duration.ofMinutes(1));
        JsonNode results = Printed.tree(results(client, finished, progress));
        if (json) {
          ObjectNode document = document(finished, ready, results);
          document.set("hardware", hardware(() -> client.results().correlate(run.id())));
          out.println(Formats.json(document));
        } else {
          out.println();
          RunsResultsCommand.print(out, results);
          CorrelationTable.print(out, () -> client.results().correlate(run.id()));
          printFailures(out, finished);
        }
        out.flush();
        return finished.state() == RunState.SUCCEEDED ? 0 : 1;
      } finally {
        try {
          Runtime.getRuntime().removeShutdownHook(cancelOnExit);
        } catch (IllegalStateException shuttingDown) {
          // The hook is cancelling the run.
        }
      }
    }
  }

  /**
   * The run's results with the measures asked for; a statistic the simulator never printed is said,
   * and the results shown without it rather than lost.
   */
  private Map<String, Object> results(CascadeClient client, Run finished, PrintWriter progress) {
    List<Measure> asked =
        MeasureOptions.withSet(measures, measureSet, client.runs(), finished, progress);
    if (!asked.isEmpty()) {
      try {
        return ResultsJson.writeResults(
            finished, client.results().compare(finished.id(), asked), baseline, asked);
      } catch (CascadeException e) {
        if (!"measures".equals(e.field())) {
          throw e;
        }
        progress.println("--measure: " + e.getMessage().replaceFirst("^measures: ", ""));
        progress.flush();
      }
    }
    return ResultsJson.writeResults(finished, client.results().compare(finished.id()), baseline);
  }

  private static Trace awaitReady(Cascade cascade, String traceId, PrintWriter progress)
      throws InterruptedException {
    Path folder = cascade.traces().folderOf(traceId);
    Optional<Trace> now = cascade.traces().find(traceId);
    if (now.isEmpty() && !Files.isDirectory(folder)) {
      throw new CascadeException(
          ErrorCode.NOT_FOUND,
          "there is no trace \""
              + traceId
              + "\" in "
              + folder.getParent()
              + "; give a trace id from there, or a folder holding a trace",
          "trace_id");
    }
    if (now.isEmpty() || !now.get().state().isSettled()) {
      progress.println("Waiting for trace " + traceId + " to be ready...");
      progress.flush();
    }
    Trace trace = cascade.traces().await(traceId, TRACE_READY_TIMEOUT);
    if (trace.state() == TraceState.FAILED) {
      throw new CascadeException(
          ErrorCode.CONFLICT, "trace \"" + traceId + "\" failed: " + trace.reason(), "trace_id");
    }
    if (trace.state() != TraceState.READY) {
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "trace \""
              + traceId
              + "\" is still "
              + trace.state().wireName()
              + " after "
              + TRACE_READY_TIMEOUT.toMinutes()
              + " minutes",
          "trace_id");
    }
    return trace;
  }

  /**
   * Ctrl-C cancels: the sims report to this process's own server, which goes with it, so no app
   * could take their results; a run to leave and come back to is {@code runs create} on {@code
   * serve}.
   */
  private static Thread cancelOnInterrupt(
      Cascade cascade, String runId, PrintWriter progress, AtomicBoolean interrupted) {
    return new Thread(
        () -> {
          interrupted.set(true); // before the cancel, so the watcher sees it when the sims end
          try {
            Run run = cascade.runs().cancel(runId);
            progress.println();
            progress.println(
                "Run "
                    + runId
                    + " cancelled (Ctrl-C): its "
                    + Printed.count(run.sims().size(), "sim")
                    + " stopped. To leave a run going, start it on a server: cascade serve, then"
                    + " cascade runs create ... --watch (Ctrl-C there only stops watching).");
            progress.flush();
            for (Sim sim : run.sims()) {
              if (sim.launcherRef() != null && sim.state() == dev.cascade.core.SimState.CANCELLED) {
                cascade.launcher().stop(sim.launcherRef());
              }
            }
          } catch (RuntimeException e) {
            // The JVM is going away; nothing more to do.
          }
        },
        "cascade-run-cancel");
  }

  private static ObjectNode document(Run run, Trace trace, JsonNode results) {
    ObjectNode document = JsonNodeFactory.instance.objectNode();
    document.put("run_id", run.id());
    document.put("trace_id", trace.id());
    document.put("kernel_count", trace.kernelCount());
    document.put("state", run.state().wireName());
    ObjectNode sims = document.putObject("sims_by_state");
    for (Sim sim : run.sims()) {
      sims.put(sim.state().wireName(), sims.path(sim.state().wireName()).asInt() + 1);
    }
    document.set("configs", results.path("configs"));
    return document;
  }

  /**
   * The figures the text output prints under "Against the hardware", as {@code GET
   * /api/runs/{id}/correlation} answers them; null when the trace carries no hardware numbers, and
   * {@code {"error": ...}} when its CSV cannot be read (the results still stand).
   */
  static JsonNode hardware(Supplier<HardwareCorrelation> correlate) {
    HardwareCorrelation correlation;
    try {
      correlation = correlate.get();
    } catch (CascadeException e) {
      return JsonNodeFactory.instance.objectNode().put("error", e.getMessage());
    }
    if (correlation.source() == null) {
      return JsonNodeFactory.instance.nullNode();
    }
    ObjectNode hardware = (ObjectNode) Printed.tree(CorrelationJson.write(null, correlation));
    hardware.remove("run_id"); // the document's own
    return hardware;
  }

  private static void printFailures(PrintWriter out, Run run) {
    for (Sim sim : run.latestAttempts()) {
      if (sim.state() != dev.cascade.core.SimState.SUCCEEDED) {
        out.println(
            sim.gpuConfig()
                + " #"
                + sim.replica()
                + " "
                + sim.state().wireName()
                + (sim.error() == null ? "" : ": " + SimFailure.describe(sim)));
      }
    }
  }
}
