package dev.cascade.examples;

import dev.cascade.core.Cascade;
import dev.cascade.core.EventStream;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Following a run live: start the demo trace on the H100 and the H200, then read the run's events
 * and print a table of its sims (state, kernels done, the kernel running now) each time one
 * changes, until every sim has finished.
 *
 * <pre>
 * ./mvnw -q install -DskipTests
 * ./mvnw -q -pl cascade-examples exec:java -Dexec.mainClass=dev.cascade.examples.WatchRunExample
 * </pre>
 *
 * <p>In a terminal the table redraws in place. It uses a new temporary data dir, or the one given
 * as the first argument. {@code docs/embedding.md} walks through it.
 */
public final class WatchRunExample {

  private static final String CLEAR_SCREEN = "\033[H\033[2J";

  private WatchRunExample() {}

  public static void main(String[] args) throws Exception {
    Path dataDir =
        args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("cascade-example-");
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.putIfAbsent("CASCADE_UPLOAD_QUIET_S", "1");
    Run run = run(dataDir, environment, System.out, System.console() != null);
    System.out.println("Run " + run.id() + " " + run.state().wireName());
  }

  /**
   * Runs the example in {@code dataDir}, set up by {@code environment} ({@link
   * EmbeddedCascade#start}), printing to {@code out}, each table on a cleared screen when {@code
   * redraw}; returns the finished run.
   */
  public static Run run(
      Path dataDir, Map<String, String> environment, PrintStream out, boolean redraw)
      throws Exception {
    EmbeddedCascade.seedDemoTrace(dataDir);
    try (Cascade cascade = EmbeddedCascade.start(dataDir, environment)) {
      Runs runs = cascade.runs();
      EmbeddedCascade.awaitReady(cascade.traces(), "demo", Duration.ofMinutes(1));
      Run run =
          runs.create("demo", List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 2)));
      return watch(runs, run.id(), table -> out.print((redraw ? CLEAR_SCREEN : "") + table));
    }
  }

  /** Where {@link #watch} sends each new table. */
  public interface TableSink {
    void show(String table);
  }

  // tag::watch[]
  /**
   * Shows the run's sims as a table each time one of them changes, until every sim has finished;
   * returns the finished run.
   */
  public static Run watch(Runs runs, String runId, TableSink sink) throws InterruptedException {
    String shown = "";
    try (EventStream events = runs.events(runId, 0)) { // 0: from the run's first event on
      while (true) {
        Run run = runs.get(runId);
        String table = table(run);
        if (!table.equals(shown)) {
          sink.show(table);
          shown = table;
        }
        if (run.state() != RunState.ACTIVE) {
          return run;
        }
        events.next(Duration.ofSeconds(5)); // wait for the next change (or 5 s), then look again
      }
    }
  }

  // end::watch[]

  /** The run's sims, one line each, by config and replica. */
  static String table(Run run) {
    StringBuilder table = new StringBuilder();
    table.append(
        String.format(
            Locale.ROOT,
            "run %s (%s)%n%-10s %7s %-10s %7s  %s%n",
            run.id(),
            run.state().wireName(),
            "config",
            "replica",
            "state",
            "kernels",
            "now running"));
    List<Sim> sims =
        run.sims().stream()
            .sorted(Comparator.comparing(Sim::gpuConfig).thenComparingInt(Sim::replica))
            .toList();
    for (Sim sim : sims) {
      String current =
          sim.state().isFinished() || sim.progress().currentKernel() == null
              ? (sim.error() == null ? "" : sim.error())
              : sim.progress().currentKernel();
      table.append(
          String.format(
              Locale.ROOT,
              "%-10s %7d %-10s %7s  %s%n",
              sim.gpuConfig(),
              sim.replica(),
              sim.state().wireName(),
              sim.progress().kernelsDone() + "/" + sim.progress().kernelsTotal(),
              current.length() > 50 ? current.substring(0, 47) + "..." : current));
    }
    return table.toString();
  }
}
