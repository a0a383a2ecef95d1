package dev.cascade.core.internal.run;

import dev.cascade.core.LogCollection;
import dev.cascade.core.Run;
import dev.cascade.core.RunStorage;
import dev.cascade.core.Sim;
import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.ChunkRepository.LogSize;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What runs keep on disk, and dropping what is old: the logs (never the results) of finished sims
 * created before a limit, their work folders and output files, and the kernel-window folders of
 * every finished sim (a window's filtered trace is needed only while its sim runs). After dropping,
 * the database is checkpointed and vacuumed so the file shrinks.
 */
public final class LogRetention {

  private static final Logger log = LoggerFactory.getLogger(LogRetention.class);

  /** Sims whose logs one write drops: short writer turns. */
  private static final int SIMS_PER_WRITE = 64;

  private final Database database;
  private final SimRepository sims;
  private final ChunkRepository chunks;
  private final KernelRepository kernels;
  private final Path dataDir;
  private final Clock clock;

  public LogRetention(Database database, SimRepository sims, Path dataDir, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.sims = Objects.requireNonNull(sims, "sims");
    this.chunks = new ChunkRepository(database, clock);
    this.kernels = new KernelRepository(database);
    this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** What the run keeps on disk: its logs (as sent and as stored) and its kernels' statistics. */
  public RunStorage storage(Run run) {
    List<String> simIds = run.sims().stream().map(Sim::id).toList();
    LogSize logs = chunks.size(simIds);
    return new RunStorage(
        logs.bytes(),
        logs.storedBytes(),
        kernels.storedStatsBytes(simIds),
        sims.logsDropped(run.id()));
  }

  /**
   * Drops the logs of the finished sims created more than {@code olderThan} ago, and the
   * kernel-window folders of every finished sim.
   */
  public LogCollection collect(Duration olderThan) {
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("a retention limit cannot be negative; got " + olderThan);
    }
    Instant before = clock.instant().minus(olderThan);
    Set<String> runs = new HashSet<>();
    int simsDropped = 0;
    long bytes = 0;
    long stored = 0;
    int folders = 0;
    while (true) {
      List<Sim> batch = sims.withLogsBefore(before, SIMS_PER_WRITE);
      if (batch.isEmpty()) {
        break;
      }
      Instant at = clock.instant();
      LogSize dropped =
          database.write(
              connection -> {
                long sent = 0;
                long kept = 0;
                for (Sim sim : batch) {
                  LogSize size = ChunkRepository.delete(connection, sim.id());
                  SimRepository.markLogDropped(connection, sim.id(), at);
                  sent += size.bytes();
                  kept += size.storedBytes();
                }
                return new LogSize(sent, kept);
              });
      bytes += dropped.bytes();
      stored += dropped.storedBytes();
      for (Sim sim : batch) {
        runs.add(sim.runId());
        simsDropped++;
        folders += delete(dataDir.resolve("work").resolve("sims").resolve(sim.id()));
        folders += delete(dataDir.resolve("work").resolve("sims").resolve(sim.id() + ".out"));
      }
    }
    folders += dropFinishedWindows();
    if (simsDropped > 0) {
      database.compact();
    }
    LogCollection collection =
        new LogCollection(before, runs.size(), simsDropped, bytes, stored, folders);
    if (simsDropped > 0 || folders > 0) {
      log.info(
          "dropped the logs of {} sims of {} runs created before {} ({} bytes as sent, {} stored)"
              + " and {} work folders or files",
          simsDropped,
          runs.size(),
          before,
          bytes,
          stored,
          folders);
    }
    return collection;
  }

  /** Writes the database's WAL into its file and empties the WAL, so sizes on disk are settled. */
  public void checkpoint() {
    database.checkpoint();
  }

  /** Removes the kernel-window folder of every sim that has finished (or is gone). */
  private int dropFinishedWindows() {
    Path windows = dataDir.resolve("work").resolve("windows");
    if (!Files.isDirectory(windows)) {
      return 0;
    }
    int removed = 0;
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(windows)) {
      for (Path folder : folders) {
        Optional<Sim> sim = sims.find(folder.getFileName().toString());
        if (sim.isEmpty() || sim.get().state().isFinished()) {
          removed += delete(folder);
        }
      }
    } catch (IOException e) {
      log.warn("cannot list the kernel-window folders in {}: {}", windows, e.getMessage());
    }
    return removed;
  }

  /**
   * Deletes a file or a folder with what it holds; links are removed, never followed (a window's
   * trace links to the trace's own files).
   *
   * @return 1 when something was deleted
   */
  private static int delete(Path path) {
    if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    try (Stream<Path> inside = Files.walk(path)) {
      for (Path each : inside.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(each);
      }
      return 1;
    } catch (IOException e) {
      log.warn("cannot delete {}: {}", path, e.getMessage());
      return 0;
    }
  }
}
