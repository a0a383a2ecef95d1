package dev.cascade.sail;

import dev.cascade.agent.ProcessGroups;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A Sail service on this machine, for tests. A sandbox's disk is a folder; the app's own sandbox's
 * disk is the app's data dir. A checkpoint copies that folder; a sandbox started from a checkpoint
 * gets a copy of the checkpoint's folder; an exec is a local process in a process group of its own,
 * and an exec with an idempotency key the sandbox has seen reattaches instead of starting again;
 * terminating a sandbox kills its processes. Faults on demand: {@link #faults()}.
 *
 * <p>One thing only the fake does: on Sail a fork's disk holds the app's files at the same paths as
 * the app's, so the sim's {@code CASCADE_DATA_DIR} and {@code CASCADE_TRACE_DIR} need no change.
 * Here every fork's disk is a folder of its own, so the fake rewrites the app's data dir at the
 * start of every argument and environment value of an exec to the fork's folder, and runs the exec
 * in that folder. What each exec was given after that rewrite is kept in {@link #execs()}.
 */
final class FakeSailService implements SailClient, AutoCloseable {

  record CheckpointRecord(String id, String name, String sandboxId, Path disk) {}

  record ForkRecord(
      String sandboxId, String name, String checkpointId, boolean restoreMemory, Path disk) {}

  record ExecRecord(
      String sandboxId,
      String idempotencyKey,
      Path disk,
      List<String> command,
      Map<String, String> environment,
      long pid) {}

  /** Faults the next calls run into; each counts down as calls meet it. */
  static final class Faults {
    private final AtomicInteger failingCheckpoints = new AtomicInteger();
    private volatile boolean checkpointFailuresTransient;
    private final AtomicInteger failingForks = new AtomicInteger();
    private volatile boolean forkFailuresTransient;
    private final AtomicInteger hangingExecs = new AtomicInteger();
    private final AtomicInteger lostExecReplies = new AtomicInteger();
    private final AtomicInteger vanishingForks = new AtomicInteger();

    /** The next {@code times} checkpoints fail. */
    Faults failCheckpoints(int times, boolean transientFailure) {
      checkpointFailuresTransient = transientFailure;
      failingCheckpoints.set(times);
      return this;
    }

    /** The next {@code times} sandboxes started from a checkpoint fail to start. */
    Faults failForks(int times, boolean transientFailure) {
      forkFailuresTransient = transientFailure;
      failingForks.set(times);
      return this;
    }

    /** The next {@code times} execs never answer (until interrupted) and start nothing. */
    Faults hangExecs(int times) {
      hangingExecs.set(times);
      return this;
    }

    /** The next {@code times} execs start their command, then never answer (until interrupted). */
    Faults loseExecReplies(int times) {
      lostExecReplies.set(times);
      return this;
    }

    /** The next {@code times} sandboxes started from a checkpoint vanish as soon as they run. */
    Faults vanishForks(int times) {
      vanishingForks.set(times);
      return this;
    }

    private static boolean take(AtomicInteger fault) {
      return fault.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }
  }

  private static final class Sandbox {
    final String id;
    final String name;
    final Path disk;
    final Map<String, Exec> execs = new LinkedHashMap<>();
    boolean terminated;

    Sandbox(String id, String name, Path disk) {
      this.id = id;
      this.name = name;
      this.disk = disk;
    }
  }

  private record Exec(String id, Process process) {}

  private final Path root;
  private final String ownSandboxId;
  private final Path appDisk;
  private final Faults faults = new Faults();
  private final Object lock = new Object();
  private final Map<String, CheckpointRecord> checkpoints = new LinkedHashMap<>();
  private final Map<String, Sandbox> sandboxes = new LinkedHashMap<>();
  private final List<ForkRecord> forks = new CopyOnWriteArrayList<>();
  private final List<ExecRecord> execs = new CopyOnWriteArrayList<>();
  private final List<String> terminated = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger checkpointCalls = new AtomicInteger();
  private final AtomicInteger reattached = new AtomicInteger();
  private final AtomicInteger hungCalls = new AtomicInteger();
  private final AtomicInteger forksInFlight = new AtomicInteger();
  private final AtomicInteger peakForksInFlight = new AtomicInteger();
  private volatile Consumer<Path> afterCheckpoint = disk -> {};
  private volatile Duration forkDelay = Duration.ZERO;

  /**
   * A service keeping its folders under {@code root}, where the app runs in sandbox {@code
   * ownSandboxId} whose disk is {@code appDisk} (the app's data dir).
   */
  FakeSailService(Path root, String ownSandboxId, Path appDisk) {
    this.root = root.toAbsolutePath();
    this.ownSandboxId = ownSandboxId;
    this.appDisk = appDisk.toAbsolutePath();
    if (this.appDisk.startsWith(this.root) || this.root.startsWith(this.appDisk)) {
      throw new IllegalArgumentException("the service's folder and the app's disk must be apart");
    }
  }

  Faults faults() {
    return faults;
  }

  /** Runs after every checkpoint, with the app's disk, before the checkpoint call answers. */
  FakeSailService afterCheckpoint(Consumer<Path> hook) {
    this.afterCheckpoint = hook;
    return this;
  }

  /**
   * How long starting a sandbox from a checkpoint takes. The sandbox comes up even when the caller
   * gives up meanwhile, as on a real service.
   */
  FakeSailService forkDelay(Duration delay) {
    this.forkDelay = delay;
    return this;
  }

  // ---- SailClient ----

  @Override
  public String ownSandboxId() {
    return ownSandboxId;
  }

  @Override
  public Optional<String> findCheckpoint(String sandboxId, String name) {
    synchronized (lock) {
      return checkpoints.values().stream()
          .filter(c -> c.sandboxId().equals(sandboxId) && c.name().equals(name))
          .map(CheckpointRecord::id)
          .findFirst();
    }
  }

  @Override
  public String checkpoint(String sandboxId, String name) throws SailException {
    checkpointCalls.incrementAndGet();
    if (!sandboxId.equals(ownSandboxId)) {
      throw new SailException(SailException.Kind.NOT_FOUND, "sandbox " + sandboxId + " not found");
    }
    if (Faults.take(faults.failingCheckpoints)) {
      throw failure(faults.checkpointFailuresTransient, "checkpoint of " + sandboxId);
    }
    String id = "ck_" + ids.incrementAndGet();
    Path disk = root.resolve("checkpoints").resolve(id);
    copyTree(appDisk, disk);
    afterCheckpoint.accept(appDisk);
    synchronized (lock) {
      checkpoints.put(id, new CheckpointRecord(id, name, sandboxId, disk));
    }
    return id;
  }

  @Override
  public Optional<String> findSandbox(String name) {
    synchronized (lock) {
      return sandboxes.values().stream()
          .filter(s -> s.name.equals(name) && !s.terminated)
          .map(s -> s.id)
          .findFirst();
    }
  }

  @Override
  public String createFromCheckpoint(String checkpointId, String name, boolean restoreMemory)
      throws SailException, InterruptedException {
    peakForksInFlight.accumulateAndGet(forksInFlight.incrementAndGet(), Math::max);
    try {
      long ready = System.nanoTime() + forkDelay.toNanos();
      while (System.nanoTime() < ready) {
        LockSupport.parkNanos(ready - System.nanoTime());
      }
      CheckpointRecord checkpoint;
      synchronized (lock) {
        checkpoint = checkpoints.get(checkpointId);
      }
      if (checkpoint == null) {
        throw new SailException(
            SailException.Kind.NOT_FOUND, "checkpoint " + checkpointId + " not found");
      }
      if (Faults.take(faults.failingForks)) {
        throw failure(faults.forkFailuresTransient, "sandbox from " + checkpointId);
      }
      String id = "sb_" + ids.incrementAndGet();
      Path disk = root.resolve("sandboxes").resolve(id);
      copyTree(checkpoint.disk(), disk);
      Sandbox sandbox = new Sandbox(id, name, disk);
      forks.add(new ForkRecord(id, name, checkpointId, restoreMemory, disk));
      if (!Faults.take(faults.vanishingForks)) {
        synchronized (lock) {
          sandboxes.put(id, sandbox);
        }
      }
      return id;
    } finally {
      forksInFlight.decrementAndGet();
    }
  }

  @Override
  public String exec(String sandboxId, SailExec exec) throws SailException, InterruptedException {
    Sandbox sandbox;
    synchronized (lock) {
      sandbox = sandboxes.get(sandboxId);
    }
    if (sandbox == null) {
      throw new SailException(SailException.Kind.NOT_FOUND, "sandbox " + sandboxId + " not found");
    }
    if (Faults.take(faults.hangingExecs)) {
      hang();
    }
    String execId;
    synchronized (sandbox) {
      if (sandbox.terminated) {
        throw new SailException(
            SailException.Kind.NOT_FOUND, "sandbox " + sandboxId + " not found (terminated)");
      }
      Exec known = sandbox.execs.get(exec.idempotencyKey());
      if (known != null) {
        reattached.incrementAndGet();
        return known.id();
      }
      execId = "ex_" + ids.incrementAndGet();
      sandbox.execs.put(exec.idempotencyKey(), new Exec(execId, start(sandbox, exec)));
    }
    if (Faults.take(faults.lostExecReplies)) {
      hang();
    }
    return execId;
  }

  @Override
  public void terminate(String sandboxId) {
    Sandbox sandbox;
    synchronized (lock) {
      sandbox = sandboxes.get(sandboxId);
    }
    if (sandbox == null) {
      return; // gone, or never was: not an error
    }
    synchronized (sandbox) {
      if (sandbox.terminated) {
        return;
      }
      sandbox.terminated = true;
      kill(sandbox);
    }
    terminated.add(sandboxId);
  }

  // ---- what tests look at and do ----

  /**
   * A live sandbox disappears, as a VM whose host died: its processes are killed outright (no
   * SIGTERM, so nothing gets to report) and the service forgets it.
   */
  void vanish(String sandboxId) throws IOException, InterruptedException {
    Sandbox sandbox;
    synchronized (lock) {
      sandbox = sandboxes.remove(sandboxId);
    }
    if (sandbox == null) {
      return;
    }
    synchronized (sandbox) {
      for (Exec exec : sandbox.execs.values()) {
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + exec.process().pid())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start()
            .waitFor();
        exec.process().waitFor();
      }
    }
  }

  /** A checkpoint is deleted (by hand, say): starting from it fails with not found. */
  void deleteCheckpoint(String checkpointId) {
    synchronized (lock) {
      checkpoints.remove(checkpointId);
    }
  }

  List<CheckpointRecord> checkpoints() {
    synchronized (lock) {
      return List.copyOf(checkpoints.values());
    }
  }

  /** How many times a checkpoint was asked for, failed ones included. */
  int checkpointCalls() {
    return checkpointCalls.get();
  }

  List<ForkRecord> forks() {
    return List.copyOf(forks);
  }

  Optional<ForkRecord> fork(String sandboxId) {
    return forks.stream().filter(f -> f.sandboxId().equals(sandboxId)).findFirst();
  }

  /** Every exec that started a process, in order; reattached ones are not repeated. */
  List<ExecRecord> execs() {
    return List.copyOf(execs);
  }

  int reattachedExecs() {
    return reattached.get();
  }

  /** Calls that are hanging or hung until interrupted. */
  int hungCalls() {
    return hungCalls.get();
  }

  /** Sandboxes terminated through {@link #terminate}, in order. */
  List<String> terminated() {
    return List.copyOf(terminated);
  }

  int forksInFlight() {
    return forksInFlight.get();
  }

  int peakForksInFlight() {
    return peakForksInFlight.get();
  }

  /** True while a process an exec started in the sandbox is alive. */
  boolean isRunning(String sandboxId) {
    return execs.stream()
        .filter(e -> e.sandboxId().equals(sandboxId))
        .anyMatch(e -> ProcessGroups.isAlive(e.pid()));
  }

  /** Terminates every sandbox still running. */
  @Override
  public void close() {
    List<String> live;
    synchronized (lock) {
      live = new ArrayList<>(sandboxes.keySet());
    }
    live.forEach(this::terminate);
  }

  // ---- inside ----

  private Process start(Sandbox sandbox, SailExec exec) throws SailException {
    List<String> command = new ArrayList<>();
    command.add(ProcessGroups.setsid().orElseThrow().toString());
    exec.command().forEach(word -> command.add(onDisk(word, sandbox.disk)));
    Map<String, String> environment = new LinkedHashMap<>();
    exec.environment().forEach((name, value) -> environment.put(name, onDisk(value, sandbox.disk)));
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(sandbox.disk.toFile())
              .redirectErrorStream(true)
              .redirectOutput(
                  ProcessBuilder.Redirect.appendTo(
                      sandbox.disk.resolve(".exec-" + exec.idempotencyKey() + ".log").toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().putAll(environment);
      Process process = builder.start();
      execs.add(
          new ExecRecord(
              sandbox.id,
              exec.idempotencyKey(),
              sandbox.disk,
              List.copyOf(command.subList(1, command.size())),
              Map.copyOf(environment),
              process.pid()));
      return process;
    } catch (IOException e) {
      throw new SailException(SailException.Kind.PERMANENT, "cannot start: " + e.getMessage(), e);
    }
  }

  /** Fake-only: the app's data dir at the start of {@code value} becomes the fork's disk. */
  private String onDisk(String value, Path disk) {
    String app = appDisk.toString();
    if (value.equals(app)) {
      return disk.toString();
    }
    return value.startsWith(app + "/") ? disk + value.substring(app.length()) : value;
  }

  private static void kill(Sandbox sandbox) {
    for (Exec exec : sandbox.execs.values()) {
      ProcessGroups.terminate(exec.process().pid(), Duration.ofSeconds(2));
      try {
        exec.process().waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Never answers. An interrupted call takes a moment to let go (300 ms), as a remote call being
   * cancelled does; the launcher waits for it, so a launch interrupted at shutdown frees its launch
   * slot only after every queued launch was interrupted too. (Freed at once, the slot can go to a
   * queued launch during shutdown, whose sim then stays {@code launching}: a race in the core's
   * launch queue.)
   */
  private void hang() throws InterruptedException {
    hungCalls.incrementAndGet();
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      long letGo = System.nanoTime() + Duration.ofMillis(300).toNanos();
      while (System.nanoTime() < letGo) {
        LockSupport.parkNanos(letGo - System.nanoTime());
      }
      throw e;
    }
  }

  private static SailException failure(boolean transientFailure, String what) {
    return transientFailure
        ? new SailException(SailException.Kind.TRANSIENT, what + " failed: UNAVAILABLE (injected)")
        : new SailException(
            SailException.Kind.PERMANENT, what + " failed: FAILED_PRECONDITION (injected)");
  }

  /** Copies a folder; files that disappear while it copies (SQLite's journal) are skipped. */
  private static void copyTree(Path from, Path to) {
    try {
      Files.createDirectories(to);
      Files.walkFileTree(
          from,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
                throws IOException {
              Files.createDirectories(to.resolve(from.relativize(dir).toString()));
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              if (attrs.isRegularFile()) {
                try {
                  Files.copy(
                      file,
                      to.resolve(from.relativize(file).toString()),
                      StandardCopyOption.REPLACE_EXISTING);
                } catch (NoSuchFileException gone) {
                  // removed while copying
                }
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
  }
}
