package dev.cascade.sail;

import dev.cascade.agent.SimContract;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each sim in a Sail sandbox of its own, as the Concepts guide's "How a run launches"
 * describes:
 *
 * <ol>
 *   <li>The app's own sandbox is checkpointed once per run, as {@code cascade-<run id>}. A
 *       checkpoint with that name is reused when it exists, so a restart mid-launch takes no second
 *       one; launches of the same run wait for each other, so eight at once take one.
 *   <li>Each sim gets a sandbox named {@code cascade-<sim id>} started from that checkpoint with
 *       {@code restore_memory=False}: it boots fresh from the saved disk, trace included. A live
 *       sandbox with that name is reused.
 *   <li>{@code CASCADE_SIM_CMD} runs there in the background with the sim's environment and the sim
 *       id as the exec's idempotency key, so trying again reattaches instead of starting the sim
 *       twice. Its output goes to {@code $CASCADE_DATA_DIR/work/sims/<sim id>.out} on the fork's
 *       disk.
 *   <li>The launcher ref is the fork's sandbox id; {@link #stop} terminates that sandbox.
 * </ol>
 *
 * <p>Sail calls that fail transiently are tried again with a doubling wait ({@link
 * SailLauncherSettings}); a launch that still fails terminates the fork it made and reports why,
 * and the sim becomes {@code failed} with that reason. The sandbox gets the sim's environment on
 * top of its own, not the app's whole environment, which holds {@code SAIL_API_KEY}.
 *
 * <p>Found by {@link java.util.ServiceLoader} under the name {@code sail} ({@code cascade serve
 * --sims sail}); the no-argument constructor drives the {@code sail} command line configured from
 * the environment ({@link CliSailClient#fromEnvironment}).
 */
public final class SailLauncher implements Launcher {

  public static final String NAME = "sail";

  /** Checkpoints and sandboxes are named {@code cascade-<run id>} and {@code cascade-<sim id>}. */
  public static final String NAME_PREFIX = "cascade-";

  /**
   * What runs in the fork: creates the sim's work folder and the output file's folder, enters the
   * work folder, and replaces itself with the sim's command, output appended to the file. Its
   * arguments are the output file, the work folder, then the command.
   *
   * <p>Sail's exec gives no standard input, so the token arrives as {@value SimContract#SIM_TOKEN}
   * in this shell's environment. The shell moves it to the command's standard input, as the other
   * launchers give it (a here-document, the Slurm job script's way), and takes it out of the
   * environment the command inherits: neither the agent nor the simulator has it in {@code
   * /proc/<pid>/environ}, and no shell is left holding it once {@code exec} has replaced this one.
   */
  static final String SIM_SCRIPT =
      """
      out=$1; dir=$2; shift 2
      token=$%1$s; unset %1$s
      mkdir -p "$dir" "$(dirname "$out")" && cd "$dir" && exec "$@" >>"$out" 2>&1 <<END_OF_TOKEN
      $token
      END_OF_TOKEN
      """
          .formatted(SimContract.SIM_TOKEN);

  private static final Logger log = LoggerFactory.getLogger(SailLauncher.class);

  /** How long a call that was given up on may take to end before the launch moves on. */
  private static final Duration ABANDON_WAIT = Duration.ofSeconds(5);

  private final SailClient client;
  private final SailLauncherSettings settings;
  private final Map<String, String> checkpoints = new ConcurrentHashMap<>();
  private final Map<String, ReentrantLock> runLocks = new ConcurrentHashMap<>();
  private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
  private final ExecutorService cleanups = Executors.newVirtualThreadPerTaskExecutor();

  /**
   * The launcher {@code ServiceLoader} finds: the {@code sail} CLI, set up from the environment.
   */
  public SailLauncher() {
    this(CliSailClient.fromEnvironment(System.getenv()), SailLauncherSettings.defaults());
  }

  public SailLauncher(SailClient client) {
    this(client, SailLauncherSettings.defaults());
  }

  public SailLauncher(SailClient client, SailLauncherSettings settings) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Optional<String> unavailableReason() {
    return client.unavailableReason();
  }

  public SailLauncherSettings settings() {
    return settings;
  }

  @Override
  public String launch(SimLaunch launch) throws LaunchException {
    Optional<String> unavailable = unavailableReason();
    if (unavailable.isPresent()) {
      throw new LaunchException("the sail launcher cannot run here: " + unavailable.get());
    }
    Deadline deadline = Deadline.after(settings.launchBudget());
    // Sail's exec gives the command no standard input: the token goes in the exec's environment,
    // and SIM_SCRIPT moves it to the agent's standard input before anything else runs
    // (docs/operations.md, Threat model).
    Map<String, String> environment = new LinkedHashMap<>(launch.environment());
    environment.put(SimContract.SIM_TOKEN, launch.contract().simToken());
    SailExec exec = new SailExec(simCommand(launch), environment, launch.simId());
    String sandboxId = null;
    boolean execSent = false;
    try {
      String checkpointId = checkpointOf(launch.runId(), deadline);
      for (int fork = 1; ; fork++) {
        sandboxId = forkOf(launch, checkpointId, deadline);
        String forkId = sandboxId;
        execSent = true;
        try {
          String execId =
              retrying(
                  "start sim " + launch.simId() + " in sandbox " + forkId,
                  deadline,
                  () -> client.exec(forkId, exec));
          log.info("sim {} started in Sail sandbox {} (exec {})", launch.simId(), forkId, execId);
          return forkId;
        } catch (SailException e) {
          if (!e.isNotFound() || fork >= settings.attempts()) {
            throw e;
          }
          // The fork vanished before the sim could start in it: start another.
          log.warn("sim {}: {}; starting a new sandbox", launch.simId(), e.getMessage());
          sandboxId = null;
          execSent = false;
        }
      }
    } catch (SailException e) {
      if (sandboxId != null) {
        terminateQuietly(sandboxId, launch.simId());
      }
      throw new LaunchException(e.getMessage(), false, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      // A fork whose exec may have started is left alone: its sim can still report. One that
      // never got its exec (or is being made by a call just given up on) would only cost money.
      if (!execSent) {
        String forkId = sandboxId;
        try {
          cleanups.execute(() -> terminateUnstarted(forkId, launch.simId()));
        } catch (RejectedExecutionException closed) {
          log.warn("sim {}: launcher closed, its sandbox is left to terminate", launch.simId());
        }
      }
      throw new LaunchException(
          "interrupted while launching sim " + launch.simId() + " on Sail", true, e);
    }
  }

  /** Terminates the sandbox. A sandbox that is already gone is fine. */
  @Override
  public void stop(String launcherRef) {
    Objects.requireNonNull(launcherRef, "launcherRef");
    if (launcherRef.isBlank()) {
      throw new IllegalArgumentException("a sail launcher ref is a sandbox id; got a blank one");
    }
    if (launcherRef.equals(client.ownSandboxId())) {
      throw new IllegalArgumentException(
          "refusing to terminate \"" + launcherRef + "\": it is the app's own sandbox");
    }
    try {
      retrying(
          "terminate Sail sandbox " + launcherRef,
          Deadline.after(settings.launchBudget()),
          () -> {
            client.terminate(launcherRef);
            return null;
          });
      log.info("Sail sandbox {} terminated", launcherRef);
    } catch (SailException e) {
      if (!e.isNotFound()) {
        throw new IllegalStateException(
            e.getMessage() + "; terminate it by hand: sail box terminate " + launcherRef, e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits a little for forks being cleaned up; running sims are left alone. */
  @Override
  public void close() {
    cleanups.shutdown();
    try {
      if (!cleanups.awaitTermination(10, TimeUnit.SECONDS)) {
        log.warn("gave up waiting for Sail sandboxes of failed launches to be terminated");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    cleanups.shutdownNow();
    calls.shutdownNow();
  }

  /** What the fork runs: {@link #SIM_SCRIPT} around the sim's command. */
  static List<String> simCommand(SimLaunch launch) {
    List<String> command = new ArrayList<>();
    command.add("sh");
    command.add("-c");
    command.add(SIM_SCRIPT);
    command.add("cascade-sim");
    command.add(launch.output().toString());
    command.add(launch.workDir().toString());
    command.addAll(launch.command());
    return command;
  }

  /** The run's checkpoint: found or taken once, whatever the number of launches at once. */
  private String checkpointOf(String runId, Deadline deadline)
      throws SailException, InterruptedException {
    String known = checkpoints.get(runId);
    if (known != null) {
      return known;
    }
    ReentrantLock lock = runLocks.computeIfAbsent(runId, id -> new ReentrantLock());
    if (!lock.tryLock(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS)) {
      throw new SailException(
          SailException.Kind.TRANSIENT,
          "gave up waiting for another launch of run " + runId + " to checkpoint the app");
    }
    try {
      known = checkpoints.get(runId);
      if (known != null) {
        return known;
      }
      String own = client.ownSandboxId();
      String name = NAME_PREFIX + runId;
      String checkpointId =
          retrying(
              "checkpoint the app's sandbox " + own + " as " + name,
              deadline,
              () -> {
                Optional<String> found = client.findCheckpoint(own, name);
                if (found.isPresent()) {
                  log.info("run {}: reusing checkpoint {} ({})", runId, found.get(), name);
                  return found.get();
                }
                String taken = client.checkpoint(own, name);
                log.info("run {}: checkpointed sandbox {} as {} ({})", runId, own, taken, name);
                return taken;
              });
      checkpoints.put(runId, checkpointId);
      return checkpointId;
    } finally {
      lock.unlock();
      // Launches that come later find the checkpoint without the lock; one that waits on this
      // lock finds it too once it gets the lock.
      if (checkpoints.containsKey(runId)) {
        runLocks.remove(runId, lock);
      }
    }
  }

  /** The sim's sandbox: a live one with its name, or a new one from the run's checkpoint. */
  private String forkOf(SimLaunch launch, String checkpointId, Deadline deadline)
      throws SailException, InterruptedException {
    try {
      return forkFrom(launch, checkpointId, deadline);
    } catch (SailException e) {
      if (!e.isNotFound()) {
        throw e;
      }
      // The run's checkpoint is gone (deleted by hand?): take it again and start from that.
      log.warn("run {}: {}; checkpointing again", launch.runId(), e.getMessage());
      checkpoints.remove(launch.runId(), checkpointId);
      return forkFrom(launch, checkpointOf(launch.runId(), deadline), deadline);
    }
  }

  private String forkFrom(SimLaunch launch, String checkpointId, Deadline deadline)
      throws SailException, InterruptedException {
    String name = NAME_PREFIX + launch.simId();
    return retrying(
        "start sandbox " + name + " from checkpoint " + checkpointId,
        deadline,
        () -> {
          Optional<String> found = client.findSandbox(name);
          if (found.isPresent()) {
            log.info("sim {}: reusing sandbox {} ({})", launch.simId(), found.get(), name);
            return found.get();
          }
          String created = client.createFromCheckpoint(checkpointId, name, false);
          log.info(
              "sim {}: sandbox {} ({}) started from checkpoint {}",
              launch.simId(),
              created,
              name,
              checkpointId);
          return created;
        });
  }

  /** Terminates the sim's fork, found by name when its id is not known yet, if there is one. */
  private void terminateUnstarted(String sandboxId, String simId) {
    String forkId = sandboxId;
    if (forkId == null) {
      try {
        forkId =
            timed(
                    Deadline.after(settings.callTimeout()),
                    () -> client.findSandbox(NAME_PREFIX + simId))
                .orElse(null);
      } catch (SailException e) {
        log.warn("sim {}: cannot look for its sandbox to terminate it: {}", simId, e.getMessage());
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (forkId != null) {
      terminateQuietly(forkId, simId);
    }
  }

  private void terminateQuietly(String sandboxId, String simId) {
    try {
      stop(sandboxId);
    } catch (RuntimeException e) {
      log.warn(
          "sim {}: the sandbox of its failed launch was not terminated: {}", simId, e.getMessage());
    }
  }

  @FunctionalInterface
  private interface SailCall<T> {
    T call() throws SailException, InterruptedException;
  }

  /**
   * Makes {@code call}, trying again after a doubling wait while it fails transiently, up to the
   * settings' attempts and the launch's deadline. The exception thrown says what failed, how many
   * tries were made, and the last reason.
   */
  private <T> T retrying(String what, Deadline deadline, SailCall<T> call)
      throws SailException, InterruptedException {
    Duration backoff = settings.firstBackoff();
    for (int attempt = 1; ; attempt++) {
      try {
        return timed(deadline, call);
      } catch (SailException e) {
        boolean again =
            e.isTransient()
                && attempt < settings.attempts()
                && deadline.remaining().compareTo(backoff) > 0;
        if (!again) {
          throw new SailException(
              e.kind(),
              "cannot "
                  + what
                  + (attempt > 1 ? " (" + attempt + " tries)" : "")
                  + ": "
                  + e.getMessage(),
              e);
        }
        log.warn(
            "could not {} (try {}), trying again in {}: {}",
            what,
            attempt,
            describe(backoff),
            e.getMessage());
        Thread.sleep(backoff);
        backoff = backoff.multipliedBy(2);
      }
    }
  }

  /** Makes one call, which counts as a transient failure when it takes longer than allowed. */
  private <T> T timed(Deadline deadline, SailCall<T> call)
      throws SailException, InterruptedException {
    Duration remaining = deadline.remaining();
    Duration limit =
        remaining.compareTo(settings.callTimeout()) < 0 ? remaining : settings.callTimeout();
    if (limit.isZero()) {
      throw new SailException(
          SailException.Kind.PERMANENT,
          "the launch used up its " + describe(settings.launchBudget()));
    }
    CountDownLatch ended = new CountDownLatch(1);
    Future<T> answer =
        calls.submit(
            () -> {
              try {
                return call.call();
              } finally {
                ended.countDown();
              }
            });
    try {
      return answer.get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      abandon(answer, ended);
      throw new SailException(
          SailException.Kind.TRANSIENT, "Sail did not answer within " + describe(limit), e);
    } catch (InterruptedException e) {
      abandon(answer, ended);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SailException sail) {
        throw sail;
      }
      if (cause instanceof InterruptedException) {
        throw new SailException(
            SailException.Kind.TRANSIENT, "the Sail call was interrupted", cause);
      }
      throw new SailException(SailException.Kind.PERMANENT, String.valueOf(cause), cause);
    }
  }

  /**
   * Interrupts a call given up on and waits a little for it to end (a {@code sail} process to be
   * killed), so that a launch that returns leaves no call of its own running.
   */
  private static void abandon(Future<?> answer, CountDownLatch ended) {
    answer.cancel(true);
    boolean interrupted = false;
    long deadline = System.nanoTime() + ABANDON_WAIT.toNanos();
    while (true) {
      try {
        if (!ended.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          log.warn("a Sail call given up on has not ended after {}", describe(ABANDON_WAIT));
        }
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  static String describe(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 1000 != 0 || millis == 0) {
      return millis + " ms";
    }
    long seconds = millis / 1000;
    return seconds % 60 == 0 ? seconds / 60 + " min" : seconds + " s";
  }

  private record Deadline(long endNanos) {
    static Deadline after(Duration duration) {
      return new Deadline(System.nanoTime() + duration.toNanos());
    }

    Duration remaining() {
      return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
    }
  }
}
