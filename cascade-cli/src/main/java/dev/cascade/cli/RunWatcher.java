package dev.cascade.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.client.CascadeClient;
import dev.cascade.core.CascadeException;
import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.json.ApiJson;
import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Follows a run until every sim has finished, showing one line per sim: a progress bar of kernels
 * done / total, the state and the heartbeat age. On a terminal the lines are redrawn in place
 * (ANSI); otherwise a line is appended whenever a sim's state or kernel count changes, which reads
 * well in a log. A run of more than {@value ConfigFold#FOLD_ABOVE} sims is folded into one line per
 * config ({@link ConfigFold}), printed in a log when its counts or each tenth of its kernels
 * change.
 *
 * <p>Changes come from the run's event stream ({@link RunEvents}), which reconnects with {@code
 * Last-Event-ID} when dropped. The stream replays the run's history first; a change older than what
 * is shown already (a lower state, fewer kernels) is skipped, so the view only moves forward. On a
 * terminal the run is also read every {@link #refresh} for heartbeat times, which change without
 * events.
 */
final class RunWatcher {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CascadeClient client;
  private final String runId;
  private final PrintWriter out;
  private final boolean interactive;
  private final Map<String, WatchedSim> sims = new LinkedHashMap<>();
  private final BlockingQueue<RunEvents.Signal> signals = new LinkedBlockingQueue<>();

  /** How often a terminal view is redrawn when nothing happens (heartbeat ages tick). */
  Duration tick = Duration.ofSeconds(1);

  /** How often a terminal view reads the run again for heartbeat times. */
  Duration refresh = Duration.ofSeconds(2);

  /**
   * What Ctrl-C does while this watches, told before the lines; null for the default, that the run
   * goes on ({@code cascade run} says its own).
   */
  String interruptNote;

  /**
   * Whether the last line points to {@code cascade runs results}: false where no server will have
   * the run ({@code cascade run} in a temporary data dir, which prints the results itself).
   */
  boolean suggestResults = true;

  /**
   * True once whoever runs this watcher ended the run itself ({@code cascade run} on Ctrl-C) and
   * says so: the sims' last lines still print, the run's summary does not, so it is said once.
   */
  BooleanSupplier endedByCaller = () -> false;

  private String traceId;

  /** Why the event stream is down, shown under the lines; null while it is up. */
  private String problem;

  /** Why the last read of the run (for heartbeat times) failed; null when it worked. */
  private String refreshProblem;

  /** Whether the run is large enough to show one line per config ({@link ConfigFold}). */
  private boolean folded;

  /** Each config's last line in a log, by {@link ConfigFold#key}, so a line prints on a change. */
  private final Map<String, String> printedFolds = new LinkedHashMap<>();

  private int drawnLines;
  private String drawnBlock;
  private int configWidth;

  RunWatcher(CascadeClient client, String runId, PrintWriter out, boolean interactive) {
    this.client = client;
    this.runId = runId;
    this.out = out;
    this.interactive = interactive;
  }

  /** Watches until the run has finished: 0 when it succeeded, 1 otherwise. */
  int watch() throws InterruptedException {
    Run run = client.runs().get(runId);
    traceId = run.traceId();
    for (Sim sim : run.sims()) {
      WatchedSim view = new WatchedSim(sim.id());
      view.take(sim);
      sims.put(view.id, view);
      configWidth = Math.max(configWidth, view.config.length());
    }
    folded = ConfigFold.folds(sims.size());
    refreshSchedules();
    out.println(
        "Watching run "
            + runId
            + " on trace "
            + traceId
            + ": "
            + Printed.count(sims.size(), "sim")
            + " ("
            + Printed.entries(run.entries())
            + ")"
            + (allFinished()
                ? ""
                : "; "
                    + (interruptNote != null
                        ? interruptNote
                        : "Ctrl-C stops watching, the run goes on: cascade runs watch "
                            + runId
                            + " picks it up again")));
    if (!allFinished()) {
      follow();
    }
    return finish();
  }

  private void follow() throws InterruptedException {
    if (!interactive && folded) {
      printFolds(true);
    } else if (!interactive) {
      for (WatchedSim sim : sims.values()) {
        printLine(sim, sim.heartbeatAge(Instant.now()));
      }
    }
    long lastRefresh = System.nanoTime();
    RunEvents events = new RunEvents(client, runId, signals).start();
    try {
      while (!allFinished()) {
        if (interactive) {
          draw();
        }
        RunEvents.Signal signal = signals.poll(tick.toMillis(), TimeUnit.MILLISECONDS);
        while (signal != null) {
          handle(signal);
          signal = signals.poll();
        }
        if (System.nanoTime() - lastRefresh >= refresh.toNanos()) {
          if (interactive) {
            refreshHeartbeats();
          }
          refreshSchedules();
          lastRefresh = System.nanoTime();
        }
      }
      if (interactive) {
        draw();
      }
    } finally {
      events.close();
    }
  }

  private void handle(RunEvents.Signal signal) {
    switch (signal) {
      case RunEvents.Event event -> {
        if (event.event().kind() != SimEvent.Kind.SIM) {
          return;
        }
        Sim data = readSim(event.event());
        WatchedSim sim = data == null ? null : sims.get(data.id());
        if (sim == null || !sim.take(data)) {
          return;
        }
        if (!interactive && folded) {
          printFolds(false);
        } else if (!interactive && sim.changedSincePrinted()) {
          printLine(sim, sim.heartbeatAge(event.event().at()));
        }
      }
      case RunEvents.Dropped dropped -> {
        String note = "event stream dropped (" + dropped.reason() + "); reconnecting";
        if (!interactive && problem == null) {
          out.println("  (" + note + ")");
          out.flush();
        }
        problem = note;
      }
      case RunEvents.Connected connected -> {
        if (connected.resumed() && !interactive) {
          out.println("  (event stream reconnected)");
          out.flush();
        }
        problem = null;
      }
      case RunEvents.Refused refused -> throw refused.error();
    }
  }

  /** Reads the run again for heartbeat times; a failure only shows, the stream reconnects. */
  private void refreshHeartbeats() throws InterruptedException {
    try {
      for (Sim sim : client.runs().get(runId).sims()) {
        WatchedSim view = sims.get(sim.id());
        if (view != null) {
          view.heartbeat(sim.lastHeartbeatAt());
        }
      }
      refreshProblem = null;
    } catch (CascadeException e) {
      refreshProblem = ApiOptions.forUser(e).getMessage();
    }
  }

  /** Reads where each sim stands in the queue and its estimated finish; a failure only waits. */
  private void refreshSchedules() {
    try {
      Map<String, SimSchedule> schedules = client.runs().schedule(runId);
      for (WatchedSim view : sims.values()) {
        view.schedule = schedules.get(view.id);
      }
    } catch (CascadeException e) {
      refreshProblem = ApiOptions.forUser(e).getMessage();
    }
  }

  private int finish() throws InterruptedException {
    String state;
    try {
      state = client.runs().get(runId).state().wireName();
    } catch (CascadeException e) {
      state = derivedState();
    }
    if (folded && (!interactive || drawnLines == 0)) {
      printFolds(false);
    } else if (!interactive || drawnLines == 0) {
      for (WatchedSim sim : sims.values()) {
        if (sim.changedSincePrinted()) {
          printLine(sim, null);
        }
      }
    }
    if (endedByCaller.getAsBoolean()) {
      out.flush();
      return 1;
    }
    Map<String, Integer> byState = new LinkedHashMap<>();
    for (WatchedSim sim : sims.values()) {
      byState.merge(sim.state, 1, Integer::sum);
    }
    List<String> counts = new ArrayList<>();
    byState.forEach((name, count) -> counts.add(count + " " + name));
    out.println("Run " + runId + " " + state + ": " + String.join(", ", counts));
    if (folded) {
      ConfigFold.byConfig(sims.values())
          .forEach(
              (config, group) ->
                  ConfigFold.errors(group, 200)
                      .forEach(error -> out.println("  " + config + ": " + error)));
    } else {
      for (WatchedSim sim : sims.values()) {
        if (sim.error != null) {
          out.println("  " + sim.label(configWidth) + " " + sim.state + ": " + sim.error);
        }
      }
    }
    if (suggestResults && byState.getOrDefault("succeeded", 0) > 0) {
      out.println("Compare the configs with: cascade runs results " + runId);
    }
    out.flush();
    return "succeeded".equals(state) ? 0 : 1;
  }

  /** The run's state as the server derives it, from the sims seen, when it cannot be asked. */
  private String derivedState() {
    long succeeded = sims.values().stream().filter(s -> s.state.equals("succeeded")).count();
    long cancelled = sims.values().stream().filter(s -> s.state.equals("cancelled")).count();
    if (succeeded == sims.size()) {
      return "succeeded";
    }
    if (succeeded > 0) {
      return "partial";
    }
    return cancelled > 0 ? "cancelled" : "failed";
  }

  private boolean allFinished() {
    return sims.values().stream().allMatch(WatchedSim::finished);
  }

  private void printLine(WatchedSim sim, Duration heartbeatAge) {
    out.println("  " + sim.line(configWidth, heartbeatAge));
    sim.printed();
    out.flush();
  }

  /** In a log, the line of each config that changed since it was printed (all when asked). */
  private void printFolds(boolean all) {
    Instant now = Instant.now();
    ConfigFold.byConfig(sims.values())
        .forEach(
            (config, group) -> {
              String key = ConfigFold.key(group);
              if (all || !key.equals(printedFolds.get(config))) {
                printedFolds.put(config, key);
                out.println("  " + ConfigFold.line(config, group, configWidth, now));
              }
            });
    out.flush();
  }

  /** Redraws the block in place: back to its first line, clear to the end, print it again. */
  private void draw() {
    Instant serverNow = Instant.now();
    List<String> lines = new ArrayList<>();
    long finished = sims.values().stream().filter(WatchedSim::finished).count();
    lines.add("  " + finished + " of " + Printed.count(sims.size(), "sim") + " finished");
    if (folded) {
      ConfigFold.lines(sims.values(), configWidth, serverNow)
          .forEach(line -> lines.add("  " + line));
    } else {
      for (WatchedSim sim : sims.values()) {
        lines.add("  " + sim.line(configWidth, sim.heartbeatAge(serverNow)));
      }
    }
    if (problem != null || refreshProblem != null) {
      lines.add("  (" + (problem != null ? problem : refreshProblem) + ")");
    }
    String block = String.join("\n", lines);
    if (block.equals(drawnBlock)) {
      return; // nothing changed since the last frame
    }
    drawnBlock = block;
    StringBuilder frame = new StringBuilder();
    if (drawnLines > 0) {
      frame.append("\033[").append(drawnLines).append('F').append("\033[J");
    }
    for (String line : lines) {
      frame.append(line).append('\n');
    }
    out.print(frame);
    out.flush();
    drawnLines = lines.size();
  }

  /** A sim event's data as a sim; null when it is not one (skipped rather than stop watching). */
  private static Sim readSim(SimEvent event) {
    try {
      return ApiJson.readSim(JSON.readTree(event.data()));
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  /** True when this process has a terminal, where lines and bars can be redrawn in place. */
  static boolean isTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      // Java 22+: a console exists even when redirected; ask whether it is a terminal.
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // Java 21: a console exists only on a terminal
    }
  }
}
