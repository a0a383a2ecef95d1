package dev.cascade.core.internal.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DatabaseConcurrencyTest {

  private static final int WRITERS = 16;
  private static final int WRITES_PER_WRITER = 200;
  private static final int READERS = 4;
  private static final int READS_PER_READER = 500;
  private static final int RUNS = WRITERS * WRITES_PER_WRITER / 4;

  @TempDir Path dataDir;

  @Test
  void write_fromManyThreadsAtOnce_losesNothing() throws Exception {
    Clock clock = Clock.systemUTC();
    Ids ids = new Ids(clock);
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    Queue<Run> written = new ConcurrentLinkedQueue<>();
    AtomicLong reads = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);

    try (Database database = Database.open(dataDir.resolve("cascade.db"))) {
      RunRepository runs = new RunRepository(database);
      SimRepository sims = new SimRepository(database, clock);
      ChunkRepository chunks = new ChunkRepository(database, clock);

      try (ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS)) {
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          writers.add(
              pool.submit(
                  () -> {
                    start.await();
                    // Each write is its own transaction; four kinds in turn, on this thread's
                    // newest run.
                    Run run = null;
                    for (int i = 0; i < WRITES_PER_WRITER; i++) {
                      switch (i % 4) {
                        case 0 -> {
                          run = newRun(ids, clock.instant());
                          runs.insert(run);
                        }
                        case 1 ->
                            chunks.insertAll(
                                List.of(
                                    chunk(run.sims().get(0).id(), 1),
                                    chunk(run.sims().get(1).id(), 0)));
                        case 2 -> chunks.insert(chunk(run.sims().get(0).id(), 0));
                        default -> {
                          sims.transition(
                              run.sims().get(0).id(),
                              SimState.PENDING,
                              SimState.LAUNCHING,
                              Outcome.NONE);
                          written.add(run);
                        }
                      }
                    }
                    return null;
                  }));
        }
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
          readers.add(
              pool.submit(
                  () -> {
                    start.await();
                    // A fixed number of reads, not a busy loop: they overlap the writes without
                    // starving the writers of CPU.
                    for (int i = 0; i < READS_PER_READER; i++) {
                      Run newest = runs.list(5).stream().findFirst().orElse(null);
                      if (newest != null) {
                        assertThat(runs.find(newest.id())).isPresent();
                        chunks.contiguousCount(newest.sims().get(0).id());
                      }
                      reads.incrementAndGet();
                    }
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> writer : writers) {
          collect(writer, failures);
        }
        for (Future<?> reader : readers) {
          collect(reader, failures);
        }
      }

      assertThat(failures).isEmpty();
      assertThat(reads.get()).isEqualTo((long) READERS * READS_PER_READER);
      assertThat(written).hasSize(RUNS);
      List<Run> stored = runs.list();
      assertThat(stored)
          .extracting(Run::id)
          .doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(written.stream().map(Run::id).toList());
      for (Run run : stored) {
        Sim launched = run.sims().get(0);
        assertThat(launched.state()).isEqualTo(SimState.LAUNCHING);
        assertThat(run.sims().get(1).state()).isEqualTo(SimState.PENDING);
        assertThat(chunks.contiguousCount(launched.id())).isEqualTo(2);
        assertThat(chunks.totalBytes(launched.id())).isEqualTo(2L * (launched.id().length() + 2));
        assertThat(chunks.contiguousCount(run.sims().get(1).id())).isEqualTo(1);
      }
      long storedChunks =
          database.read(
              connection -> {
                try (var statement = connection.createStatement();
                    var row = statement.executeQuery("SELECT count(*) FROM chunks")) {
                  row.next();
                  return row.getLong(1);
                }
              });
      assertThat(storedChunks).isEqualTo(3L * RUNS);
    }
  }

  private static Run newRun(Ids ids, Instant now) {
    return StoreFixtures.newRun(ids, now, "demo", new RunEntry("SM90_H100", 2));
  }

  private static Chunk chunk(String simId, long seq) {
    return new Chunk(simId, seq, (simId + ":" + seq).getBytes(UTF_8));
  }

  private static void collect(Future<?> future, Queue<Throwable> failures)
      throws InterruptedException {
    try {
      future.get();
    } catch (ExecutionException e) {
      failures.add(e.getCause());
    }
  }
}
