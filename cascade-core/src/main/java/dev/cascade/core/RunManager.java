package dev.cascade.core;

import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.run.RunRequestValidator;
import dev.cascade.core.internal.run.RunSettings;
import dev.cascade.core.internal.run.SimJson;
import dev.cascade.core.internal.run.SimLauncher;
import dev.cascade.core.internal.run.SimTokens;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.internal.store.SimRepository.Outcome;
import dev.cascade.core.spi.Launcher;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, launches, follows, cancels and recovers runs. Every change of a sim is a move along
 * {@link SimStateMachine#SIM_TRANSITIONS} stored together with its {@link SimEvent}, so the
 * database, the event stream and what clients see never disagree, and a crash loses nothing that
 * was acknowledged.
 */
public final class RunManager implements Runs {

  private static final Logger log = LoggerFactory.getLogger(RunManager.class);

  private final Database database;
  private final RunRepository runs;
  private final SimRepository sims;
  private final EventLog events;
  private final TraceStore traces;
  private final RunRequestValidator validator;
  private final SimLauncher launcher;
  private final SimOutput outputs;
  private final RunSettings settings;
  private final Ids ids;
  private final Clock clock;

  RunManager(
      Database database,
      EventLog events,
      TraceStore traces,
      GpuConfigCatalog catalog,
      Launcher launcher,
      SimOutput outputs,
      RunSettings settings,
      Clock clock) {
    this.database = database;
    this.runs = new RunRepository(database);
    this.sims = new SimRepository(database, clock);
    this.events = events;
    this.traces = traces;
    this.validator = new RunRequestValidator(traces, catalog);
    this.launcher =
        new SimLauncher(
            launcher,
            SimTokens.inDataDir(settings.dataDir()),
            sims,
            this::moveAndPublish,
            settings,
            clock,
            Duration.ofMinutes(5));
    this.outputs = outputs;
    this.settings = settings;
    this.ids = new Ids(clock);
    this.clock = clock;
  }

  /**
   * Checks the request, writes the run and all its sims as {@code pending} in one transaction, and
   * launches them in the background.
   *
   * @throws CascadeException {@code not_found} for an unknown trace, {@code conflict} for a trace
   *     not ready or a sample, {@code invalid} for bad entries; each names the field
   */
  public Run create(String traceId, List<RunEntry> entries) {
    RunRequestValidator.Validated request = validator.validate(traceId, entries);
    Instant now = clock.instant();
    String runId = ids.newRunId();
    List<Sim> pending = new ArrayList<>();
    for (RunEntry entry : entries) {
      for (int replica = 0; replica < entry.count(); replica++) {
        pending.add(
            Sim.pending(
                ids.newSimId(),
                runId,
                entry.gpuConfig(),
                replica,
                request.trace().kernelCount(),
                now));
      }
    }
    Run run = new Run(runId, traceId, entries, now, pending);
    database.write(
        connection -> {
          runs.insert(connection, run);
          for (Sim sim : pending) {
            appendSimEvent(connection, sim.id());
          }
          return null;
        });
    events.committed();
    log.info("run {} created: trace {}, {} sims", runId, traceId, pending.size());
    pending.forEach(sim -> submit(sim, request));
    return get(runId);
  }

  /** The run with its sims and derived state. */
  public Optional<Run> find(String runId) {
    return runId == null ? Optional.empty() : runs.find(runId);
  }

  /** The run, or {@code not_found} naming the id. */
  public Run get(String runId) {
    return find(runId)
        .orElseThrow(
            () ->
                new CascadeException(
                    ErrorCode.NOT_FOUND, "there is no run \"" + runId + "\"", "run_id"));
  }

  /** Every run, newest first. */
  public List<Run> list() {
    return runs.list();
  }

  /** The sim, or {@code not_found} naming the id. */
  public Sim sim(String simId) {
    return (simId == null ? Optional.<Sim>empty() : sims.find(simId))
        .orElseThrow(
            () ->
                new CascadeException(
                    ErrorCode.NOT_FOUND, "there is no sim \"" + simId + "\"", "sim_id"));
  }

  /**
   * Cancels every unfinished sim of the run and stops it; finished sims keep their results.
   * Cancelling twice is harmless. Returns the run as it is now.
   */
  public Run cancel(String runId) {
    Run run = get(runId);
    List<Sim> cancelled =
        database.write(
            connection -> {
              List<Sim> moved = new ArrayList<>();
              for (Sim sim : run.sims()) {
                if (!sim.state().isFinished()
                    && sims.move(connection, sim.id(), null, SimState.CANCELLED, Outcome.NONE)) {
                  appendSimEvent(connection, sim.id());
                  moved.add(sim);
                }
              }
              return moved;
            });
    events.committed();
    if (!cancelled.isEmpty()) {
      log.info("run {} cancelled: {} sims stopped", runId, cancelled.size());
    }
    cancelled.forEach(sim -> launcher.stopLater(sim.id()));
    return get(runId);
  }

  /**
   * Waits until every sim of the run has finished, or {@code timeout} passes, and returns the run
   * as it is then: check {@link Run#state()}.
   */
  public Run await(String runId, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (EventStream stream = events.stream(runId, events.latestId())) {
      while (true) {
        Run run = get(runId);
        long remaining = deadline - System.nanoTime();
        if (run.state() != RunState.ACTIVE || remaining <= 0) {
          return run;
        }
        stream.next(Duration.ofNanos(Math.min(remaining, Duration.ofSeconds(1).toNanos())));
      }
    }
  }

  /** The run's events after {@code afterId}, past and live, in order; close when done. */
  public EventStream events(String runId, long afterId) {
    get(runId);
    return events.stream(runId, afterId);
  }

  /**
   * Applies a sim's heartbeat: records it, moves the sim along {@code SIM_TRANSITIONS}, and answers
   * {@code cancel: true} once its run was cancelled. A final heartbeat ({@code succeeded} or {@code
   * failed}) is applied only once every chunk it counts is held; until then the reply lists the
   * missing ones.
   */
  public HeartbeatReply heartbeat(String simId, Heartbeat heartbeat) {
    Sim sim = sim(simId);
    sims.recordHeartbeat(simId);
    if (sim.state() == SimState.CANCELLED) {
      return HeartbeatReply.CANCEL;
    }
    if (sim.state().isFinished()) {
      return HeartbeatReply.CONTINUE;
    }
    if (!heartbeat.isFinal()) {
      if (sim.state() != SimState.RUNNING) { // a running sim's heartbeat changes nothing else
        moveAndPublish(simId, SimState.RUNNING, Outcome.NONE);
      }
      return HeartbeatReply.CONTINUE;
    }
    if (!outputs.holdsAll(simId, heartbeat.chunks())) {
      // Alive, but not done until its whole output is here.
      if (sim.state() != SimState.RUNNING) {
        moveAndPublish(simId, SimState.RUNNING, Outcome.NONE);
      }
      return new HeartbeatReply(false, outputs.missing(simId, heartbeat.chunks()));
    }
    outputs.finish(simId);
    SimState finalState = heartbeat.state();
    String error = heartbeat.error();
    if (finalState == SimState.SUCCEEDED) {
      Optional<String> logFailure = outputs.failureInLog(simId);
      if (logFailure.isPresent()) {
        finalState = SimState.FAILED;
        error = logFailure.get();
      }
    } else if (error == null || error.isBlank()) {
      error =
          "the simulator failed"
              + (heartbeat.exitCode() == null ? "" : " with exit code " + heartbeat.exitCode());
    }
    boolean moved = moveAndPublish(simId, finalState, new Outcome(error, heartbeat.exitCode()));
    if (moved) {
      log.info("sim {} {}", simId, finalState.wireName() + (error == null ? "" : ": " + error));
      launcher.finished(simId);
    }
    return sim(simId).state() == SimState.CANCELLED
        ? HeartbeatReply.CANCEL
        : HeartbeatReply.CONTINUE;
  }

  /**
   * Stores chunk {@code seq} (from 0) of a sim's output. Idempotent: a chunk sent again is stored
   * once. Chunks may arrive out of order; they are parsed in order once the gap is filled. Returns
   * false for a chunk already held.
   */
  public boolean putChunk(String simId, long seq, byte[] bytes) {
    if (seq < 0) {
      throw new CascadeException(
          ErrorCode.INVALID, "chunk seq must be 0 or more; got " + seq, "seq");
    }
    Sim sim = sim(simId);
    return outputs.accept(simId, sim.runId(), seq, bytes).stored();
  }

  /** The sim's whole output so far, streamed from the stored chunks. */
  public InputStream log(String simId) {
    sim(simId);
    return outputs.log(simId);
  }

  /** The last {@code lines} lines of the sim's output. */
  public List<String> logTail(String simId, int lines) {
    sim(simId);
    return outputs.logTail(simId, lines);
  }

  /** The kernels the sim has finished, with their statistics, in log order. */
  public List<KernelResult> kernels(String simId) {
    sim(simId);
    return outputs.kernels(simId);
  }

  /** The token sim {@code simId} must present; what the launcher hands it. */
  public boolean isSimToken(String simId, String token) {
    return launcher.tokens().isValid(simId, token);
  }

  /**
   * One pass of the heartbeat monitor: a running sim silent for the heartbeat timeout becomes
   * {@code lost}; a sim silent for 10 times the timeout becomes {@code failed} with {@code no
   * heartbeat for <n>s} and is stopped. Silence counts from the last heartbeat, or from the launch
   * when there was none.
   */
  public void checkHeartbeats() {
    Instant now = clock.instant();
    for (Sim sim : sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST)) {
      Instant since = lastSignOfLife(sim);
      if (since == null) {
        continue;
      }
      Duration silent = Duration.between(since, now);
      if (silent.compareTo(settings.giveUpAfter()) >= 0) {
        String error = "no heartbeat for " + silent.toSeconds() + "s";
        if (moveAndPublish(sim.id(), SimState.FAILED, Outcome.error(error))) {
          log.warn("sim {} failed: {}", sim.id(), error);
          launcher.stopLater(sim.id());
        }
      } else if (sim.state() == SimState.RUNNING
          && silent.compareTo(settings.heartbeatTimeout()) >= 0) {
        if (moveAndPublish(sim.id(), SimState.LOST, Outcome.NONE)) {
          log.warn("sim {} lost: no heartbeat for {}s", sim.id(), silent.toSeconds());
        }
      }
    }
  }

  /** Launches the sims still pending, as after a restart; each run is read and checked once. */
  void launchPending() {
    List<Sim> pending = sims.findInStates(SimState.PENDING);
    if (!pending.isEmpty()) {
      log.info("launching {} sims left pending", pending.size());
    }
    Map<String, List<Sim>> byRun = new LinkedHashMap<>();
    pending.forEach(sim -> byRun.computeIfAbsent(sim.runId(), id -> new ArrayList<>()).add(sim));
    byRun.forEach(
        (runId, runSims) -> {
          Run run = get(runId);
          RunRequestValidator.Validated request;
          try {
            request = validator.validate(run.traceId(), run.entries());
          } catch (CascadeException e) {
            for (Sim sim : runSims) {
              if (moveAndPublish(sim.id(), SimState.FAILED, Outcome.error(e.getMessage()))) {
                log.warn("sim {} cannot launch any more: {}", sim.id(), e.getMessage());
              }
            }
            return;
          }
          runSims.forEach(sim -> submit(sim, request));
        });
  }

  private void submit(Sim sim, RunRequestValidator.Validated request) {
    GpuConfig config =
        request.configs().entrySet().stream()
            .filter(entry -> entry.getKey().gpuConfig().equals(sim.gpuConfig()))
            .findFirst()
            .orElseThrow()
            .getValue();
    launcher.submit(sim, request.trace().id(), traces.folderOf(request.trace().id()), config);
  }

  /** The most launch calls that were ever in flight at once. */
  int peakLaunchesInFlight() {
    return launcher.peakLaunchesInFlight();
  }

  /** Stops launching and the background work; running sims are left alone. */
  void close() {
    launcher.close();
  }

  private Instant lastSignOfLife(Sim sim) {
    if (sim.lastHeartbeatAt() != null) {
      return sim.lastHeartbeatAt();
    }
    return sim.launchedAt() != null ? sim.launchedAt() : null;
  }

  /** Moves a sim and appends its event in one transaction; false when the move was refused. */
  boolean moveAndPublish(String simId, SimState to, Outcome outcome) {
    return moveAndPublish(simId, null, to, outcome);
  }

  private boolean moveAndPublish(
      String simId, SimState expectedFrom, SimState to, Outcome outcome) {
    boolean moved =
        database.write(
            connection -> {
              if (!sims.move(connection, simId, expectedFrom, to, outcome)) {
                return false;
              }
              appendSimEvent(connection, simId);
              return true;
            });
    if (moved) {
      events.committed();
      if (to.isFinished()) {
        outputs.release(simId); // parses what is left and frees the sim's parser
      }
    }
    return moved;
  }

  private void appendSimEvent(Connection connection, String simId) throws SQLException {
    Sim sim = sims.find(connection, simId).orElseThrow();
    events.append(
        connection, sim.runId(), simId, SimEvent.Kind.SIM, clock.instant(), SimJson.json(sim));
  }
}
