package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class TimeLimitTest {

  @ParameterizedTest
  @CsvSource({
    "30m, 1800, 30m",
    "90s, 90, 1m30s",
    "2h, 7200, 2h",
    "1h30m, 5400, 1h30m",
    "1d2h, 93600, 1d2h",
    "600, 600, 10m",
    "' 45s ', 45, 45s"
  })
  void parse_readsDurationsAsPeopleWriteThemAndFormatWritesThemBack(
      String text, long seconds, String formatted) {
    Duration limit = TimeLimit.parse(text);

    assertThat(limit).isEqualTo(Duration.ofSeconds(seconds));
    assertThat(TimeLimit.format(limit)).isEqualTo(formatted);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "soon", "m", "1.5h", "-5m", "30 m", "5m3h", "99999999999999"})
  void parse_refusesWhatIsNoDurationQuotingIt(String text) {
    assertThatThrownBy(() -> TimeLimit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0s", "0", "31d"})
  void parse_refusesLimitsOutside1SecondTo30Days(String text) {
    assertThatThrownBy(() -> TimeLimit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("from 1 second to 30 days");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -1})
  void runEntry_refusesATimeLimitUnderASecond(long seconds) {
    assertThatThrownBy(() -> new RunEntry("SM90_H100", 1, Duration.ofSeconds(seconds)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("from 1 second to 30 days");
  }
}
