package dev.cascade.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

final class IdsTest {

  private static final RandomGenerator ZEROS = () -> 0L;
  private static final RandomGenerator ONES = () -> -1L;

  @Test
  void newRunId_isRUnderscoreAnd26CrockfordCharacters() {
    String id = new Ids(Clock.systemUTC()).newRunId();

    assertThat(id).matches("r_[0-9A-HJKMNP-TV-Z]{26}");
    assertThat(Ids.isRunId(id)).isTrue();
    assertThat(Ids.isSimId(id)).isFalse();
  }

  @Test
  void newSimId_isSUnderscoreAnd26CrockfordCharacters() {
    String id = new Ids(Clock.systemUTC()).newSimId();

    assertThat(id).matches("s_[0-9A-HJKMNP-TV-Z]{26}");
    assertThat(Ids.isSimId(id)).isTrue();
    assertThat(Ids.isRunId(id)).isFalse();
  }

  @Test
  void newRunId_encodesTheMillisecondsLikeAUlid() {
    // The ULID spec's example: 1469918176385 ms is 01ARYZ6S41.
    Ids ids = new Ids(Clock.fixed(Instant.ofEpochMilli(1469918176385L), ZoneOffset.UTC), ZEROS);

    assertThat(ids.newRunId()).isEqualTo("r_01ARYZ6S410000000000000000");
  }

  @Test
  void newRunId_encodesAll80RandomBits() {
    Ids ids = new Ids(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), ONES);

    assertThat(ids.newRunId()).isEqualTo("r_0000000000ZZZZZZZZZZZZZZZZ");
  }

  @Test
  void newIds_areUniqueAndIncreasingAcross100k() {
    Ids ids = new Ids(Clock.systemUTC());
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      made.add(i % 2 == 0 ? ids.newRunId().substring(2) : ids.newSimId().substring(2));
    }

    assertThat(new HashSet<>(made)).hasSize(100_000);
    assertThat(made).isSorted();
  }

  @Test
  void newIds_withinOneMillisecond_countUpFromTheFirst() {
    Ids ids = new Ids(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), ZEROS);

    assertThat(ids.newSimId()).isEqualTo("s_00000000000000000000000000");
    assertThat(ids.newSimId()).isEqualTo("s_00000000000000000000000001");
    assertThat(ids.newRunId()).isEqualTo("r_00000000000000000000000002");
  }

  @Test
  void newIds_sortByCreationAcrossMilliseconds() {
    SteppingClock clock = new SteppingClock(Instant.parse("2026-11-07T12:00:00Z"));
    // Random bits that fall as time rises: only the time part can keep the order.
    RandomGenerator falling =
        new RandomGenerator() {
          private long next = -1L;

          @Override
          public long nextLong() {
            return next--;
          }
        };
    Ids ids = new Ids(clock, falling);
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      made.add(ids.newRunId());
      clock.advanceMillis(i % 3);
    }

    assertThat(made).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void newIds_keepIncreasingWhenTheClockGoesBack() {
    SteppingClock clock = new SteppingClock(Instant.parse("2026-11-07T12:00:00Z"));
    Ids ids = new Ids(clock);
    String before = ids.newRunId();
    clock.advanceMillis(-5_000);

    assertThat(ids.newRunId()).isGreaterThan(before);
  }

  @Test
  void newIds_whenTheRandomBitsRunOut_moveToTheNextMillisecond() {
    Ids ids = new Ids(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), ONES);
    String last = ids.newRunId();

    String next = ids.newRunId();

    assertThat(last).isEqualTo("r_0000000000ZZZZZZZZZZZZZZZZ");
    assertThat(next).startsWith("r_0000000001").isGreaterThan(last);
  }

  @Test
  void newIds_fromManyThreads_areUnique() throws Exception {
    Ids ids = new Ids(Clock.systemUTC());
    Set<String> made = ConcurrentHashMap.newKeySet();
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 10_000; i++) {
                    made.add(ids.newSimId());
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    }

    assertThat(made).hasSize(80_000);
  }

  @Test
  void newRunId_refusesAClockBeforeTheEpoch() {
    Ids ids = new Ids(Clock.fixed(Instant.EPOCH.minusMillis(1), ZoneOffset.UTC));

    assertThatThrownBy(ids::newRunId)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("-1 ms");
  }

  @Test
  void isRunId_refusesOtherShapes() {
    assertThat(Ids.isRunId(null)).isFalse();
    assertThat(Ids.isRunId("r_")).isFalse();
    assertThat(Ids.isRunId("r_01ARYZ6S410000000000000000")).isTrue();
    assertThat(Ids.isRunId("r_01ARYZ6S41000000000000000")).isFalse();
    assertThat(Ids.isRunId("r_01ARYZ6S41000000000000000U")).isFalse();
    assertThat(Ids.isRunId("r_01aryz6s410000000000000000")).isFalse();
    assertThat(Ids.isRunId("r_../../etc/passwd000000000")).isFalse();
  }

  /** A clock that stands still until the test moves it. */
  private static final class SteppingClock extends Clock {
    private Instant now;

    SteppingClock(Instant start) {
      this.now = start;
    }

    void advanceMillis(long millis) {
      now = now.plusMillis(millis);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the test clock is UTC only");
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
