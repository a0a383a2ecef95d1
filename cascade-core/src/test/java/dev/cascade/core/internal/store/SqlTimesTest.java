package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class SqlTimesTest {

  @Test
  void instant_readsWhatTextWrites_asInstantParseDoes() {
    SplittableRandom random = new SplittableRandom(14);
    long from = Instant.parse("1970-01-01T00:00:00Z").getEpochSecond();
    long to = Instant.parse("2400-12-31T23:59:59Z").getEpochSecond();
    for (int i = 0; i < 20_000; i++) {
      Instant instant =
          Instant.ofEpochSecond(random.nextLong(from, to), random.nextInt(1_000_000_000));
      String text = SqlTimes.text(instant);
      assertThat(SqlTimes.instant(text)).isEqualTo(instant).isEqualTo(Instant.parse(text));
    }
  }

  @Test
  void instant_readsLeapDaysAndTheEdgesOfTheDay() {
    for (String text :
        new String[] {
          "2024-02-29T00:00:00.000000000Z",
          "2026-12-31T23:59:59.999999999Z",
          "2000-01-01T12:00:00.120000000Z",
          "1969-12-31T23:59:59.000000001Z"
        }) {
      assertThat(SqlTimes.instant(text)).isEqualTo(Instant.parse(text));
    }
  }

  @Test
  void instant_leavesOtherShapesToInstantParse() {
    assertThat(SqlTimes.instant("2026-11-07T12:00:00Z"))
        .isEqualTo(Instant.parse("2026-11-07T12:00:00Z"));
    assertThat(SqlTimes.instant(null)).isNull();
    // Same width as the stored text, but not a date: rejected as Instant.parse rejects it.
    assertThatThrownBy(() -> SqlTimes.instant("2026-02-30T00:00:00.000000000Z"))
        .isInstanceOf(DateTimeException.class);
    assertThatThrownBy(() -> SqlTimes.instant("2026-1x-07T12:00:00.000000000Z"))
        .isInstanceOf(DateTimeException.class);
  }
}
