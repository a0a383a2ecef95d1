package dev.cascade.core.internal.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.EventStream;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.KernelResult;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.Provenance;
import dev.cascade.core.Run;
import dev.cascade.core.RunAction;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.RunPage;
import dev.cascade.core.RunQuery;
import dev.cascade.core.RunSpeed;
import dev.cascade.core.RunState;
import dev.cascade.core.Runs;
import dev.cascade.core.Sampling;
import dev.cascade.core.Sim;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.SimState;
import dev.cascade.core.Trace;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.catalog.ConfigVariants;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.internal.trace.TraceStore;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.UsersJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, follows, cancels and recovers runs: the engine behind {@link Runs}. Every change of a
 * sim is a move along {@code SIM_TRANSITIONS} stored together with its event ({@link SimMoves}), so
 * the database, the event stream and what clients see never disagree, and a crash loses nothing
 * that was acknowledged.
 */
public final class RunService implements Runs {

  private static final Logger log = LoggerFactory.getLogger(RunService.class);
  private static final ObjectMapper ACTION_JSON = new ObjectMapper();

  private final Database database;
  private final RunRepository runs;
  private final SimRepository sims;
  private final EventLog events;
  private final TraceStore traces;
  private final RunRequestValidator validator;
  private final SimMoves moves;
  private final Launches launches;
  private final SimOutput outputs;
  private final SimSchedules schedules;
  private final Ids ids;
  private final Clock clock;
  private final SimInputs inputs;
  private final ResultReuse reuses;

  public RunService(
      Database database,
      SimRepository sims,
      EventLog events,
      TraceStore traces,
      GpuConfigCatalog catalog,
      SimMoves moves,
      Launches launches,
      SimOutput outputs,
      Clock clock) {
    this.database = database;
    this.runs = new RunRepository(database);
    this.sims = sims;
    this.events = events;
    this.traces = traces;
    this.validator =
        new RunRequestValidator(
            traces,
            catalog,
            new ConfigVariants(catalog, launches.dataDir().resolve("work").resolve("configs")));
    this.moves = moves;
    this.launches = launches;
    this.outputs = outputs;
    this.schedules =
        new SimSchedules(
            launches.slots(),
            sims,
            runs,
            clock,
            moves::successes,
            traceId -> traces.find(traceId).map(Trace::kernels).orElse(List.of()));
    this.ids = new Ids(clock);
    this.clock = clock;
    this.inputs = new SimInputs(launches.simCommand());
    this.reuses = new ResultReuse(sims);
  }

  @Override
  public Run create(String traceId, List<RunEntry> entries, RunOptions options) {
    Objects.requireNonNull(options, "options");
    RunRequestValidator.Validated request = validator.validate(traceId, entries);
    Map<RunEntry, KernelWindow> sampled = samplingWindows(traceId, entries, request.entries());
    if (!sampled.isEmpty()) {
      entries = withValidationRuns(traceId, entries, options);
      request = validator.validate(traceId, entries);
      sampled = samplingWindows(traceId, entries, request.entries());
    }
    Instant now = clock.instant();
    String runId = ids.newRunId();
    List<Sim> pending = new ArrayList<>();
    for (Map.Entry<RunEntry, GpuConfig> entry : request.configs().entrySet()) {
      TraceContext context = request.contextOf(entry.getKey());
      Provenance provenance =
          inputs.of(traces.folderOf(request.trace().id()), context, entry.getValue());
      Optional<KernelWindow> window =
          Optional.ofNullable(sampled.get(entry.getKey())).or(() -> entry.getKey().window());
      for (int replica = 0; replica < entry.getKey().count(); replica++) {
        Sim sim =
            Sim.pending(
                    ids.newSimId(),
                    runId,
                    entry.getKey().name(),
                    replica,
                    context.kernelCount(),
                    now)
                .withProvenance(provenance);
        pending.add(window.map(w -> sim.withKernels(w.text(), w.positions().size())).orElse(sim));
      }
    }
    // A sweep is stored as the variants it stands for: retries, reruns and results read those.
    Run run =
        new Run(
            runId, traceId, request.entries(), now, pending, options.owner(), options.priority());
    boolean reuse = options.reuse();
    Set<String> reused =
        database.write(
            connection -> {
              runs.insert(connection, run);
              Set<String> taken = reuse ? reuses.apply(connection, pending, now) : Set.of();
              for (Sim sim : pending) {
                moves.appendSimEvent(connection, sim.id());
              }
              return taken;
            });
    events.committed();
    log.info(
        "run {} created: trace {}, {} sims{}",
        runId,
        traceId,
        pending.size(),
        reuse ? ", " + reused.size() + " reusing earlier results" : "");
    // A reused sim is finished: it never waits for a slot.
    submitByEntry(
        pending.stream().filter(sim -> !reused.contains(sim.id())).toList(), run, request);
    return get(runId);
  }

  /**
   * The kernels each sampled entry of {@code validated} simulates: its plan's representatives (a
   * plan per sampling request, so a swept entry's variants share one). A plan that cannot be made
   * is refused naming the {@code requested} entry's field.
   */
  private Map<RunEntry, KernelWindow> samplingWindows(
      String traceId, List<RunEntry> requested, List<RunEntry> validated) {
    Map<Sampling, KernelWindow> plans = new HashMap<>();
    for (int i = 0; i < requested.size(); i++) {
      RunEntry entry = requested.get(i);
      if (entry.sampling() == null || plans.containsKey(entry.sampling().request())) {
        continue;
      }
      try {
        plans.put(
            entry.sampling().request(),
            traces.sampling(traceId, entry.sampling().request()).window());
      } catch (CascadeException e) {
        throw new CascadeException(
            e.code(),
            e.getMessage(),
            "entries[" + i + "]." + (e.field() == null ? "sampling" : e.field()));
      }
    }
    Map<RunEntry, KernelWindow> windows = new LinkedHashMap<>();
    for (RunEntry entry : validated) {
      if (entry.sampling() != null) {
        windows.put(entry, plans.get(entry.sampling().request()));
      }
    }
    return windows;
  }

  /**
   * Entries as they are kept: the first sampled entry that asks to validate gets a run of its own
   * simulating the whole trace once on its config (taking earlier results where it can), named in
   * its {@code validation_run}; a rerun's old validation run is not carried over.
   */
  private List<RunEntry> withValidationRuns(
      String traceId, List<RunEntry> entries, RunOptions options) {
    List<RunEntry> kept = new ArrayList<>(entries.size());
    boolean validated = false;
    for (RunEntry entry : entries) {
      if (entry.sampling() == null) {
        kept.add(entry);
        continue;
      }
      RunEntry plain = entry.withSampling(entry.sampling().request());
      if (plain.sampling().validate() && !validated) {
        validated = true;
        // The whole trace on the entry's config as the entry changes it (a sweep's first variant).
        RunEntry first = entry.expand().get(0);
        RunEntry whole =
            new RunEntry(first.gpuConfig(), 1)
                .withContext(first.context())
                .withParams(first.params())
                .withLabel(first.label());
        Run full =
            create(
                traceId,
                List.of(whole),
                new RunOptions(options.owner(), options.priority()).withReuse(true));
        log.info(
            "run {} simulates the whole trace {} on {} to validate a sampled entry",
            full.id(),
            traceId,
            entry.gpuConfig());
        plain = plain.withSampling(plain.sampling().withValidationRun(full.id()));
      }
      kept.add(plain);
    }
    return kept;
  }

  @Override
  public Run retry(String runId) {
    return retry(runId, null);
  }

  /**
   * {@link #retry(String)} asked by {@code actor}, recorded as a {@code retry} action with the new
   * attempts; {@code actor} null records nothing (an embedded caller).
   */
  public Run retry(String runId, String actor) {
    Run run = get(runId);
    RunRequestValidator.Validated request = validator.validate(run.traceId(), run.entries());
    Instant now = clock.instant();
    List<Sim> attempts =
        database.write(
            connection -> {
              // Read again in the write, on its connection, so two retries at once add one
              // attempt each (a read connection does not see a write that shares our commit).
              List<Sim> next =
                  runs
                      .find(connection, runId)
                      .orElseThrow(() -> runNotFound(runId))
                      .latestAttempts()
                      .stream()
                      .filter(
                          sim ->
                              sim.state() == SimState.FAILED || sim.state() == SimState.CANCELLED)
                      .map(sim -> sim.nextAttempt(ids.newSimId(), now))
                      .toList();
              SimRepository.insertPending(connection, runId, next);
              for (Sim sim : next) {
                moves.appendSimEvent(connection, sim.id());
              }
              if (!next.isEmpty()) {
                appendAction(connection, runId, RunAction.RETRY, actor, now, null);
              }
              return next;
            });
    if (attempts.isEmpty()) {
      throw new CascadeException(
          ErrorCode.CONFLICT,
          "run \""
              + runId
              + "\" has no failed or cancelled sim to retry; it is "
              + get(runId).state().wireName(),
          "run_id");
    }
    events.committed();
    log.info("run {} retried: {} sims launched again", runId, attempts.size());
    submitByEntry(attempts, run, request); // new attempts wait for slots like any pending sim
    return get(runId);
  }

  /**
   * Tries again, as new attempts, the sims the out-of-memory killer ended that have had fewer than
   * {@code attempts} attempts ({@link SimRepository#outOfMemoryToRetry}). A local attempt waits in
   * the queue until its predicted peak, which the killed attempt's measured peak raised, fits the
   * memory free. Returns how many it tried again.
   */
  public int retryOutOfMemory(int attempts) {
    Instant now = clock.instant();
    List<Sim> next =
        database.write(
            connection -> {
              List<Sim> again =
                  sims.outOfMemoryToRetry(connection, attempts).stream()
                      .map(sim -> sim.nextAttempt(ids.newSimId(), now))
                      .toList();
              Map<String, List<Sim>> byRun = new LinkedHashMap<>();
              again.forEach(
                  sim -> byRun.computeIfAbsent(sim.runId(), id -> new ArrayList<>()).add(sim));
              for (Map.Entry<String, List<Sim>> run : byRun.entrySet()) {
                SimRepository.insertPending(connection, run.getKey(), run.getValue());
              }
              for (Sim sim : again) {
                moves.appendSimEvent(connection, sim.id());
              }
              return again;
            });
    if (next.isEmpty()) {
      return 0;
    }
    events.committed();
    Map<String, List<Sim>> byRun = new LinkedHashMap<>();
    next.forEach(sim -> byRun.computeIfAbsent(sim.runId(), id -> new ArrayList<>()).add(sim));
    byRun.forEach(
        (runId, runSims) -> {
          Run run = get(runId);
          log.info(
              "run {}: {} sims the out-of-memory killer ended are tried again (attempt {})",
              runId,
              runSims.size(),
              runSims.getFirst().attempt());
          try {
            submitByEntry(runSims, run, validator.validate(run.traceId(), run.entries()));
          } catch (CascadeException e) {
            for (Sim sim : runSims) {
              moves.move(sim.id(), null, SimState.FAILED, Outcome.error(e.getMessage()));
            }
          }
        });
    return next.size();
  }

  @Override
  public Run rerun(String runId) {
    Run run = get(runId);
    return create(run.traceId(), run.entries(), new RunOptions(run.owner(), run.priority()));
  }

  /**
   * A new run of the same trace and entries, made by {@code actor} and so theirs; recorded on the
   * old run as a {@code rerun} action naming the new one.
   */
  public Run rerun(String runId, String actor) {
    Objects.requireNonNull(actor, "actor");
    Run run = get(runId);
    Run again = create(run.traceId(), run.entries(), new RunOptions(actor, run.priority()));
    Instant now = clock.instant();
    database.write(
        connection -> {
          appendAction(connection, runId, RunAction.RERUN, actor, now, again.id());
          return null;
        });
    events.committed();
    return again;
  }

  /** Who cancelled, retried or reran run {@code runId}, and when, oldest first. */
  public List<RunAction> actions(String runId) {
    List<RunAction> actions = new ArrayList<>();
    for (SimEvent event : events.ofKind(runId, SimEvent.Kind.ACTION)) {
      try {
        actions.add(UsersJson.readAction(ACTION_JSON.readTree(event.data())));
      } catch (IOException | IllegalArgumentException e) {
        log.warn(
            "event {} of run {} is not an action; left out: {}", event.id(), runId, e.toString());
      }
    }
    return actions;
  }

  private void appendAction(
      Connection connection, String runId, String action, String actor, Instant at, String newRun)
      throws SQLException {
    if (actor != null) {
      String data = ApiJson.toJson(UsersJson.writeAction(new RunAction(action, actor, at, newRun)));
      events.append(connection, runId, null, SimEvent.Kind.ACTION, at, data);
    }
  }

  @Override
  public Optional<Run> find(String runId) {
    return runId == null ? Optional.empty() : runs.find(runId);
  }

  @Override
  public Run get(String runId) {
    return find(runId).orElseThrow(() -> runNotFound(runId));
  }

  @Override
  public List<Run> list() {
    return runs.list();
  }

  @Override
  public RunPage list(RunQuery query) {
    return new RunListing(runs).page(Objects.requireNonNull(query, "query"));
  }

  @Override
  public Map<String, SimSchedule> schedule(String runId) {
    return schedules.of(get(runId));
  }

  @Override
  public Map<String, SimSchedule> schedule(Run run) {
    return schedules.of(run);
  }

  @Override
  public RunSpeed speed(String runId) {
    Run run = get(runId);
    return SimSpeeds.of(run, runs.findByTrace(run.traceId(), SimSpeeds.RUNS_READ));
  }

  @Override
  public Sim sim(String simId) {
    return (simId == null ? Optional.<Sim>empty() : sims.find(simId))
        .orElseThrow(() -> simNotFound(simId));
  }

  static CascadeException runNotFound(String runId) {
    return new CascadeException(ErrorCode.NOT_FOUND, "there is no run \"" + runId + "\"", "run_id");
  }

  static CascadeException simNotFound(String simId) {
    return new CascadeException(ErrorCode.NOT_FOUND, "there is no sim \"" + simId + "\"", "sim_id");
  }

  @Override
  public Run cancel(String runId) {
    return cancel(runId, null);
  }

  /**
   * {@link #cancel(String)} asked by {@code actor}, recorded as a {@code cancel} action when it
   * cancelled any sim; {@code actor} null records nothing (an embedded caller).
   */
  public Run cancel(String runId, String actor) {
    Run run = get(runId);
    Instant now = clock.instant();
    List<Sim> cancelled =
        database.write(
            connection -> {
              List<Sim> moved = new ArrayList<>();
              for (Sim sim : run.sims()) {
                if (!sim.state().isFinished()
                    && moves.moveIn(connection, sim.id(), null, SimState.CANCELLED, Outcome.NONE)) {
                  moved.add(sim);
                }
              }
              if (!moved.isEmpty()) {
                appendAction(connection, runId, RunAction.CANCEL, actor, now, null);
              }
              return moved;
            });
    if (!cancelled.isEmpty() && actor != null) {
      events.committed();
    }
    cancelled.forEach(sim -> moves.committed(true, sim.id(), SimState.CANCELLED));
    if (!cancelled.isEmpty()) {
      log.info("run {} cancelled: {} sims stopped", runId, cancelled.size());
    }
    cancelled.forEach(sim -> launches.stopLater(sim.id()));
    return get(runId);
  }

  @Override
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

  @Override
  public EventStream events(String runId, long afterId) {
    get(runId);
    return events.stream(runId, afterId);
  }

  @Override
  public InputStream log(String simId) {
    sim(simId);
    return outputs.log(simId);
  }

  @Override
  public List<String> logTail(String simId, int lines) {
    sim(simId);
    return outputs.logTail(simId, lines);
  }

  @Override
  public List<KernelResult> kernels(String simId) {
    sim(simId);
    return outputs.kernels(simId);
  }

  /**
   * Launches the sims an earlier process left unlaunched, as after a restart: those still pending,
   * and those left launching without a launcher ref (it died, or shut down, during their launch
   * call), so that no sim stays launching for ever; a half-launched sim whose process the launcher
   * finds running is adopted instead. Each run is read and checked once.
   */
  public void launchPending() {
    List<Sim> halfLaunched =
        sims.findInStates(SimState.LAUNCHING).stream()
            .filter(sim -> sim.launcherRef() == null)
            .toList();
    Set<String> adopted = launches.adoptRunning(halfLaunched);
    List<Sim> pending = new ArrayList<>(sims.findInStates(SimState.PENDING));
    halfLaunched.stream().filter(sim -> !adopted.contains(sim.id())).forEach(pending::add);
    Set<String> relaunched = new HashSet<>();
    pending.forEach(sim -> relaunched.add(sim.id()));
    // Sims still running from before hold their slots, so the queue waits for them as before.
    sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST).stream()
        .filter(sim -> !relaunched.contains(sim.id()))
        .forEach(launches::holdSlot);
    if (!pending.isEmpty()) {
      log.info("launching {} sims left pending or half-launched", pending.size());
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
              if (moves.move(sim.id(), null, SimState.FAILED, Outcome.error(e.getMessage()))) {
                log.warn("sim {} cannot launch any more: {}", sim.id(), e.getMessage());
              }
            }
            return;
          }
          submitByEntry(runSims, run, request);
        });
  }

  /** Queues a run's sims for launch, each run entry's together (one job array on Slurm). */
  private void submitByEntry(List<Sim> runSims, Run run, RunRequestValidator.Validated request) {
    Map<String, List<Sim>> byConfig = new LinkedHashMap<>();
    runSims.forEach(
        sim -> byConfig.computeIfAbsent(sim.gpuConfig(), c -> new ArrayList<>()).add(sim));
    byConfig.forEach(
        (gpuConfig, entrySims) -> {
          Map.Entry<RunEntry, GpuConfig> entry =
              request.configs().entrySet().stream()
                  .filter(candidate -> candidate.getKey().name().equals(gpuConfig))
                  .findFirst()
                  .orElseThrow();
          String traceId = request.trace().id();
          Path traceDir;
          try {
            traceDir =
                ContextTrace.folder(
                    launches.dataDir(),
                    run.id(),
                    traces.folderOf(traceId),
                    request.contextOf(entry.getKey()));
          } catch (IOException e) {
            String error =
                "cannot lay out context "
                    + request.contextOf(entry.getKey()).name()
                    + " of trace "
                    + traceId
                    + ": "
                    + e.getMessage();
            for (Sim sim : entrySims) {
              if (moves.move(sim.id(), null, SimState.FAILED, Outcome.error(error))) {
                log.warn("sim {} cannot launch: {}", sim.id(), error);
              }
            }
            return;
          }
          launches.submitAll(
              entrySims, run, traceId, traceDir, request.trace().sizeBytes(), entry.getValue());
        });
  }
}
