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
import java.util.function.Consumer;

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
 * <p>In a terminal the table redraws in place. It uses a new temporary data dir, deleted when it
 * ends, or keeps its data in the folder given as the first argument. {@code docs/embedding.md}
 * walks through it.
 */
public final class WatchRunExample {

  private static final String CLEAR_SCREEN = "\033[H\033[2J";

  private WatchRunExample() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.putIfAbsent("CASCADE_UPLOAD_QUIET_S", "1");
    boolean redraw = System.console() != null;
    Run run;
    if (args.length > 0) {
      System.out.println("Cascade data in " + args[0]);
      run = run(Path.of(args[0]), environment, System.out, redraw);
    } else {
      run = runInTemporaryDataDir(environment, System.out, redraw);
    }
    System.out.println("Run " + run.id() + " " + run.state().wireName());
  }

  /**
   * Runs the example in a new temporary data dir and deletes it at the end, whatever the end, as
   * {@link EmbeddedRunExample} does: a program run to see what Cascade does leaves nothing in
   * {@code /tmp}.
   */
  static Run runInTemporaryDataDir(Map<String, String> environment, PrintStream out, boolean redraw)
      throws Exception {
    Path dataDir = Files.createTempDirectory("cascade-example-");
    out.println(
        "Cascade data in " + dataDir + " (deleted at the end; give a folder to keep the data)");
    try {
      return run(dataDir, environment, out, redraw);
    } finally {
      EmbeddedRunExample.deleteTree(dataDir);
    }
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

  // tag::watch[]
  /**
   * Shows the run's sims as a table each time one of them changes, until every sim has finished;
   * returns the finished run.
   */
  public static Run watch(Runs runs, String runId, Consumer<String> sink)
      throws InterruptedException {
    String shown = "";
    try (EventStream events = runs.events(runId, 0)) { // 0: from the run's first event on
      while (true) {
        Run run = runs.get(runId);
        String table = table(run);
        if (!table.equals(shown)) {
          sink.accept(table);
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

  // tag::table[]
  /** The run's sims, one line each, by config and replica. */
  public static String table(Run run) {
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

  // end::table[]
}
