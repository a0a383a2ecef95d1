package dev.cascade.core.internal.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.EventStream;
import dev.cascade.core.SimEvent;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.EventRepository;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EventFanOutTest {

  private static final int CLIENTS = 20;

  @TempDir Path dir;
  private Database database;
  private CountingRows rows;
  private EventLog log;
  private final List<Thread> readers = new ArrayList<>();
  private final List<EventStream> streams = new ArrayList<>();
  private volatile boolean stopping;

  @BeforeEach
  void open() {
    database = Database.open(dir.resolve("cascade.db"));
    EventRepository table = new EventRepository(database);
    rows = new CountingRows(table);
    log = new EventLog(table, rows);
  }

  @AfterEach
  void close() throws InterruptedException {
    stopping = true;
    streams.forEach(EventStream::close);
    for (Thread reader : readers) {
      reader.join(5_000);
    }
    database.close();
  }

  @Test
  void caughtUpClients_costOneReadPerChange_notOnePerClient() {
    append("r1", 3);
    List<List<Long>> seen = watch("r1", 0, CLIENTS);
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertAll(seen, 3));
    int before = rows.reads.get();

    int changes = 5;
    for (int change = 1; change <= changes; change++) {
      append("r1", 1);
      append("r2", 1); // another run's change wakes them too
      int expected = 3 + change;
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertAll(seen, expected));
    }

    // Two commits per change; one table read each (plus a spare one a second when idle), where
    // one read per client per commit would be 200.
    assertThat(rows.reads.get() - before).isLessThanOrEqualTo(2 * changes + 6);
  }

  @Test
  void everyClient_getsItsRunsEventsInOrder_withNoneMissedOrRepeated() {
    append("r1", 2);
    List<List<Long>> fromStart = watch("r1", 0, 3);
    List<Long> firstTwo = ids("r1");
    List<List<Long>> fromSecond = watch("r1", firstTwo.get(0), 3);
    for (int i = 0; i < 40; i++) {
      append(i % 2 == 0 ? "r1" : "r2", 1);
    }
    List<Long> expected = ids("r1");
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              fromStart.forEach(ids -> assertThat(ids).containsExactlyElementsOf(expected));
              fromSecond.forEach(
                  ids ->
                      assertThat(ids)
                          .containsExactlyElementsOf(expected.subList(1, expected.size())));
            });
  }

  @Test
  void clientFurtherBehindThanTheTail_readsTheTableAndCatchesUp() {
    List<List<Long>> live = watch("r1", 0, 1);
    append("r1", 1);
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(live.get(0)).hasSize(1));
    append("r1", EventTail.CAPACITY + 300); // more than the tail keeps, in one commit
    List<List<Long>> replay = watch("r1", 0, 1);
    List<Long> expected = ids("r1");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(live.get(0)).containsExactlyElementsOf(expected);
              assertThat(replay.get(0)).containsExactlyElementsOf(expected);
            });
  }

  /** {@code clients} streams of {@code runId} after {@code afterId}, each read by its thread. */
  private List<List<Long>> watch(String runId, long afterId, int clients) {
    List<List<Long>> seen = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      List<Long> ids = Collections.synchronizedList(new ArrayList<>());
      seen.add(ids);
      EventStream stream = log.stream(runId, afterId);
      streams.add(stream);
      readers.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      while (!stopping) {
                        var event = stream.next(Duration.ofMillis(200));
                        if (event.isPresent() && event.get().runId().equals(runId)) {
                          ids.add(event.get().id());
                        } else if (event.isPresent()) {
                          ids.add(-event.get().id()); // another run's: fails the test
                        }
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
    }
    return seen;
  }

  private void append(String runId, int count) {
    database.write(
        connection -> {
          for (int i = 0; i < count; i++) {
            log.append(connection, runId, "s1", SimEvent.Kind.SIM, Instant.now(), "{}");
          }
          return null;
        });
    log.committed();
  }

  private List<Long> ids(String runId) {
    List<Long> ids = new ArrayList<>();
    long after = 0;
    while (true) {
      List<SimEvent> page = new EventRepository(database).after(runId, after, 1000);
      if (page.isEmpty()) {
        return ids;
      }
      page.forEach(event -> ids.add(event.id()));
      after = page.getLast().id();
    }
  }

  private static void assertAll(List<List<Long>> seen, int size) {
    seen.forEach(ids -> assertThat(ids).hasSize(size));
  }

  /** The events table, counting every read. */
  private static final class CountingRows implements EventRows {
    final AtomicInteger reads = new AtomicInteger();
    private final EventRepository table;

    CountingRows(EventRepository table) {
      this.table = table;
    }

    @Override
    public List<SimEvent> after(String runId, long afterId, int limit) {
      reads.incrementAndGet();
      return table.after(runId, afterId, limit);
    }

    @Override
    public long latestId() {
      reads.incrementAndGet();
      return table.latestId();
    }
  }
}
