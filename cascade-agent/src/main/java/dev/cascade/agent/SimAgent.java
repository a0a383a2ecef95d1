package dev.cascade.agent;

import dev.cascade.accelsim.stats.LogOutcome;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sim side of DESIGN.md section 7: runs a {@link Simulator}, streams its output to the app as
 * numbered chunks, heartbeats, and reports how it ended.
 *
 * <ul>
 *   <li>Output is cut into chunks ({@link ChunkCutter}), each spooled to disk before it is sent and
 *       sent in order, retried with exponential backoff while the app is unreachable or answers
 *       5xx. No chunk is dropped: they wait in the spool, however long the app is away.
 *   <li>A heartbeat goes out at once and then every {@code heartbeatInterval}, carrying the number
 *       of chunks produced so far and the simulator's peak memory ({@link SimulatorMemory}, sampled
 *       every 250 ms).
 *   <li>When the simulator exits, its output is checked for Accel-Sim's failure lines (DESIGN.md
 *       section 13) with the stats parser: {@code deadlock detected} and {@code unsupported binary
 *       version} make the sim {@code failed} even with exit code 0; a non-zero exit code makes it
 *       {@code failed}; otherwise it {@code succeeded} (a {@code break due to reaching the maximum
 *       cycles} line included: the limit is a setting the user chose, and the app notes that the
 *       last kernel is not final). The final heartbeat is repeated, re-sending every chunk the app
 *       says it is {@code missing}, until the app has the whole output.
 *   <li>{@code cancel: true} or SIGTERM ({@link #stop()}): the simulator's process group gets
 *       SIGTERM, then SIGKILL after {@code killGrace}; the remaining output and a final {@code
 *       failed} heartbeat with error {@code cancelled} are sent within {@code finalReportTimeout}.
 *   <li>No answer from the app for {@code giveUpAfter}: the simulator is stopped and the agent
 *       gives up, leaving every chunk in the spool.
 * </ul>
 *
 * <p>{@link #run()} returns one of {@link AgentExit}'s codes.
 */
final class SimAgent {

  /** How often the final heartbeat may be answered with missing chunks before giving up. */
  static final int MAX_RESEND_ROUNDS = 20;

  private final AgentSettings settings;
  private final Simulator simulator;
  private final AgentLog log;
  private final AgentState state;
  private final CountDownLatch done = new CountDownLatch(1);
  private final AtomicInteger exitCode = new AtomicInteger(-1);
  private volatile boolean simulatorExited;
  private volatile boolean finalPhase;
  private volatile long finalDeadline = Long.MAX_VALUE;
  private volatile boolean firstHeartbeatAnswered;

  /** How often the simulator's memory is sampled for its peak. */
  private static final long MEMORY_SAMPLE_MILLIS = 250;

  private final SimulatorMemory memory = new SimulatorMemory();
  private volatile Chunker chunker;

  /** The simulator's output as it passes, for its last words when it fails to start. */
  private volatile OutputTail tail;

  SimAgent(AgentSettings settings, Simulator simulator, PrintStream log) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.simulator = Objects.requireNonNull(simulator, "simulator");
    this.log = new AgentLog(log);
    this.state = new AgentState(this.log, settings.mainUrl().toString());
  }

  /** An agent that runs {@code command} as a child process. */
  public static SimAgent forCommand(AgentSettings settings, List<String> command, PrintStream log) {
    return new SimAgent(settings, new ProcessSimulator(command), log);
  }

  /** An agent that runs the emulator in this JVM. */
  public static SimAgent forEmulator(
      AgentSettings settings, dev.cascade.agent.emulator.EmulatorOptions options, PrintStream log) {
    return new SimAgent(
        settings, new EmulatorSimulator(options, dev.cascade.agent.emulator.Pacer.system()), log);
  }

  /**
   * Runs the simulator and reports it; returns when the app has the whole output and the final
   * state, or the agent stopped or gave up.
   *
   * @return an {@link AgentExit} code
   * @throws IOException when the spool folder cannot be created
   */
  public int run() throws IOException {
    try {
      int code = runAndReport();
      exitCode.set(code);
      return code;
    } finally {
      if (exitCode.get() < 0) {
        exitCode.set(AgentExit.FAILED);
      }
      done.countDown();
    }
  }

  private int runAndReport() throws IOException {
    // The first heartbeat goes out before anything else is set up: it is what tells the app the
    // sim is running, and the launch benchmark times it.
    AppClient client = new AppClient(settings.mainUrl(), settings.simId(), settings.token());
    ScheduledExecutorService heartbeats = daemonScheduler("sim-agent-heartbeat");
    heartbeats.scheduleWithFixedDelay(
        () -> heartbeat(client), 0, settings.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
    ScheduledExecutorService timer = null;
    ChunkSender sender = null;
    try {
      Spool spool = new Spool(settings.spool(), log::info);
      sender = new ChunkSender(client, spool, state, log, backoff(), settings.requestTimeout());
      Chunker output =
          new Chunker(settings.chunkBytes(), settings.chunkAge().toNanos(), spool, sender::offer);
      this.chunker = output;
      timer = daemonScheduler("sim-agent-timer");
      sender.start();
      long tick = Math.max(10, settings.chunkAge().toMillis() / 4);
      timer.scheduleWithFixedDelay(output::tick, tick, tick, TimeUnit.MILLISECONDS);
      long watch =
          Math.max(
              10,
              Math.min(
                  1000,
                  Math.min(settings.giveUpAfter().toMillis(), settings.goneAfter().toMillis())
                      / 10));
      timer.scheduleWithFixedDelay(this::watchdog, watch, watch, TimeUnit.MILLISECONDS);

      log.info(
          "sim "
              + settings.simId()
              + ": running "
              + simulator.description()
              + "; reporting to "
              + settings.mainUrl()
              + ", spool "
              + spool.dir());
      AtomicInteger simulatorCode = new AtomicInteger(-1);
      OutputTail tail = new OutputTail(output);
      this.tail = tail;
      simulator.start(
          tail,
          code -> {
            simulatorCode.set(code);
            simulatorExited = true;
            state.signal();
          });
      timer.scheduleWithFixedDelay(
          () -> simulator.process().ifPresent(memory::sample),
          0,
          MEMORY_SAMPLE_MILLIS,
          TimeUnit.MILLISECONDS);
      awaitQuietly(() -> simulatorExited || state.stopReason() != null, Long.MAX_VALUE);

      AgentState.Stop stop = state.stopReason();
      if (stop != null && !simulatorExited) {
        return stopEarly(stop, client, sender, output, spool);
      }
      return finish(simulatorCode.get(), client, sender, output, spool);
    } finally {
      heartbeats.shutdownNow();
      if (timer != null) {
        timer.shutdownNow();
      }
      if (sender != null) {
        sender.stop();
      }
    }
  }

  /** The simulator ended by itself: report its outcome until the app has everything. */
  private int finish(
      int simulatorCode, AppClient client, ChunkSender sender, Chunker output, Spool spool) {
    finalPhase = true;
    output.close();
    LogOutcome outcome = output.outcome();
    String finalState;
    String error = null;
    if (outcome.state() == LogOutcome.State.FAILED) {
      finalState = "failed";
      error = outcome.reason();
    } else if (simulatorCode != 0) {
      finalState = "failed";
      error = "the simulator exited with code " + simulatorCode + describeSignal(simulatorCode);
      String words = tail == null ? "" : tail.startFailure();
      if (!words.isEmpty()) {
        error += ": " + words; // the loader's own words, such as "undefined symbol: ..."
      }
    } else {
      finalState = "succeeded";
    }
    log.info(
        "the simulator exited with code "
            + simulatorCode
            + " after "
            + output.produced()
            + " chunks ("
            + output.bytes()
            + " bytes); its log "
            + outcome.state().label()
            + ": reporting "
            + finalState
            + (error == null ? "" : " (" + error + ")"));
    Report report = reportFinal(client, sender, finalState, error, simulatorCode, output);
    return switch (report) {
      case DELIVERED -> {
        cleanUp(spool);
        yield finalState.equals("succeeded") ? AgentExit.SUCCEEDED : AgentExit.FAILED;
      }
      case APP_CANCELLED -> {
        cleanUp(spool);
        yield AgentExit.CANCELLED;
      }
      case STOPPED -> exitForStop(spool);
    };
  }

  /** Stopped before the simulator exited: stop it, then report what there is. */
  private int stopEarly(
      AgentState.Stop stop, AppClient client, ChunkSender sender, Chunker output, Spool spool) {
    log.info(
        switch (stop) {
              case CANCELLED -> "the app cancelled the sim";
              case SIGTERM -> "got SIGTERM";
              case GAVE_UP, REJECTED -> state.stopMessage();
            }
            + "; stopping the simulator (SIGTERM, SIGKILL after "
            + settings.killGrace().toMillis()
            + " ms)");
    simulator.terminate(settings.killGrace());
    awaitQuietly(() -> simulatorExited, System.nanoTime() + Duration.ofSeconds(3).toNanos());
    finalPhase = true;
    output.close();
    if (stop == AgentState.Stop.GAVE_UP || stop == AgentState.Stop.REJECTED) {
      return exitForStop(spool);
    }
    finalDeadline = System.nanoTime() + settings.finalReportTimeout().toNanos();
    Report report = reportFinal(client, sender, "failed", "cancelled", null, output);
    if (report != Report.STOPPED) {
      cleanUp(spool);
    } else {
      log.info("the app did not take the last report in time; the output stays in " + spool.dir());
    }
    return AgentExit.CANCELLED;
  }

  private int exitForStop(Spool spool) {
    AgentState.Stop stop = state.stopReason();
    if (stop == AgentState.Stop.REJECTED) {
      log.info(
          "the app refused the sim: "
              + state.stopMessage()
              + ". Check CASCADE_SIM_ID and the sim's token (the first line of standard input); the"
              + " output stays in "
              + spool.dir());
      return AgentExit.REJECTED;
    }
    if (stop == AgentState.Stop.GAVE_UP) {
      log.info(state.stopMessage() + "; giving up. The output stays in " + spool.dir());
      return AgentExit.GAVE_UP;
    }
    log.info("stopped before the app confirmed the report; the output stays in " + spool.dir());
    return AgentExit.CANCELLED;
  }

  private enum Report {
    DELIVERED,
    APP_CANCELLED,
    STOPPED
  }

  /**
   * Sends every queued chunk, then the final heartbeat, re-sending what the app says is missing,
   * until the app has all of it, the app says cancel, or the agent must stop.
   */
  private Report reportFinal(
      AppClient client,
      ChunkSender sender,
      String finalState,
      String error,
      Integer simulatorCode,
      Chunker output) {
    long produced = output.produced();
    String json =
        AgentJson.heartbeat(finalState, error, simulatorCode, produced, memory.peakBytes());
    Backoff backoff = backoff();
    int rounds = 0;
    try {
      while (true) {
        if (!sender.awaitDrained(() -> finalDeadline) || state.fatal()) {
          return Report.STOPPED;
        }
        AgentJson.Reply reply;
        try {
          reply = client.heartbeat(json, timeoutBefore(finalDeadline));
          state.contact();
          backoff.reset();
        } catch (AppClient.AppException e) {
          if (!e.retryable()) {
            state.stop(AgentState.Stop.REJECTED, e.getMessage());
            return Report.STOPPED;
          }
          state.unreachable(e);
          pauseBeforeRetry(backoff.next());
          if (System.nanoTime() >= finalDeadline || state.fatal()) {
            return Report.STOPPED;
          }
          continue;
        }
        if (reply.cancel()) {
          return Report.APP_CANCELLED;
        }
        if (reply.missing().isEmpty()) {
          log.info("the app has all " + produced + " chunks and the final state");
          return Report.DELIVERED;
        }
        List<Long> missing = new ArrayList<>();
        for (long seq : reply.missing()) {
          if (seq < produced) {
            missing.add(seq);
          }
        }
        if (missing.isEmpty()) {
          log.info(
              "the app asks for chunks "
                  + reply.missing()
                  + " but only 0.."
                  + (produced - 1)
                  + " exist; nothing more to send");
          return Report.DELIVERED;
        }
        if (++rounds > MAX_RESEND_ROUNDS) {
          state.stop(
              AgentState.Stop.GAVE_UP,
              "the app still misses chunks "
                  + missing
                  + " after "
                  + MAX_RESEND_ROUNDS
                  + " resends");
          return Report.STOPPED;
        }
        log.info("the app misses chunks " + abbreviate(missing) + "; sending them again");
        sender.resend(missing);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Report.STOPPED;
    }
  }

  /**
   * Waits {@code wait} before trying the final report again, or less: until sending must stop, or
   * the final deadline, which a SIGTERM during the wait moves closer ({@link #stop()}).
   */
  private void pauseBeforeRetry(Duration wait) throws InterruptedException {
    long until = System.nanoTime() + wait.toNanos();
    state.awaitUntil(() -> state.fatal() || System.nanoTime() >= finalDeadline, until);
  }

  private void heartbeat(AppClient client) {
    if (finalPhase || state.stopReason() != null) {
      return;
    }
    Chunker output = chunker;
    long produced = output == null ? 0 : output.produced();
    try {
      AgentJson.Reply reply =
          client.heartbeat(
              AgentJson.heartbeat("running", null, null, produced, memory.peakBytes()),
              settings.requestTimeout());
      state.contact();
      if (!firstHeartbeatAnswered) {
        firstHeartbeatAnswered = true;
        log.info("connected: the first heartbeat was answered " + sinceJvmStart());
      }
      if (reply.cancel()) {
        state.stop(AgentState.Stop.CANCELLED, "cancelled");
      }
    } catch (AppClient.AppException e) {
      if (e.retryable()) {
        state.unreachable(e);
      } else {
        state.stop(AgentState.Stop.REJECTED, e.getMessage());
      }
    } catch (RuntimeException e) {
      log.info("heartbeat failed: " + e);
    }
  }

  private void watchdog() {
    long now = System.nanoTime();
    long gone = state.refusedFor(now);
    if (gone >= settings.goneAfter().toNanos()) {
      state.stop(
          AgentState.Stop.GAVE_UP,
          "nothing has listened at "
              + settings.mainUrl()
              + " for "
              + Duration.ofNanos(gone).toSeconds()
              + " s: the app is gone");
      return;
    }
    long silent = now - state.lastContact();
    if (silent >= settings.giveUpAfter().toNanos()) {
      state.stop(
          AgentState.Stop.GAVE_UP,
          "the app at "
              + settings.mainUrl()
              + " has not answered for "
              + Duration.ofNanos(silent).toSeconds()
              + " s");
    }
  }

  /**
   * SIGTERM: stops the simulator and reports {@code cancelled}; once the simulator has exited by
   * itself, only bounds the final report by {@code finalReportTimeout}. Returns at once.
   */
  public void stop() {
    if (!simulatorExited && state.stop(AgentState.Stop.SIGTERM, "cancelled by SIGTERM")) {
      return;
    }
    finalDeadline =
        Math.min(finalDeadline, System.nanoTime() + settings.finalReportTimeout().toNanos());
    state.signal();
  }

  /** Waits for {@link #run()} to return; its exit code, or -1 when {@code timeout} passed. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? exitCode.get() : -1;
  }

  /** The agent's settings. */
  AgentSettings settings() {
    return settings;
  }

  /** True once {@link #run()} has returned. */
  public boolean finished() {
    return done.getCount() == 0;
  }

  /** A request's time limit: the usual one, or less so it ends by {@code deadline}. */
  private Duration timeoutBefore(long deadline) {
    if (deadline == Long.MAX_VALUE) {
      return settings.requestTimeout();
    }
    long left = Math.max(1_000_000L, deadline - System.nanoTime());
    return Duration.ofNanos(Math.min(left, settings.requestTimeout().toNanos()));
  }

  private static String sinceJvmStart() {
    return ProcessHandle.current()
        .info()
        .startInstant()
        .map(
            start ->
                Duration.between(start, java.time.Instant.now()).toMillis()
                    + " ms after the agent's JVM started")
        .orElse("");
  }

  /** The longest the stop after SIGTERM may take: kill grace, final report and a margin. */
  public Duration stopTimeout() {
    return settings.killGrace().plus(settings.finalReportTimeout()).plusSeconds(4);
  }

  private void cleanUp(Spool spool) {
    if (!settings.keepSpool()) {
      spool.deleteAll();
    }
  }

  private Backoff backoff() {
    return new Backoff(settings.backoffInitial(), settings.backoffMax(), true);
  }

  private void awaitQuietly(java.util.function.BooleanSupplier condition, long deadline) {
    try {
      state.awaitUntil(condition, deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ScheduledExecutorService daemonScheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        runnable -> Thread.ofPlatform().daemon().name(name).unstarted(runnable));
  }

  private static String describeSignal(int code) {
    if (code > 128 && code < 160) {
      int signal = code - 128;
      String name =
          switch (signal) {
            case 6 -> "SIGABRT";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 15 -> "SIGTERM";
            default -> "signal " + signal;
          };
      return " (killed by " + name + ")";
    }
    return "";
  }

  private static String abbreviate(List<Long> seqs) {
    return seqs.size() <= 10
        ? seqs.toString()
        : seqs.subList(0, 10) + " and " + (seqs.size() - 10) + " more";
  }
}
