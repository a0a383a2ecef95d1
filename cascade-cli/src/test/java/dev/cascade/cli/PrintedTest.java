package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.RunEntry;
import dev.cascade.core.SimSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PrintedTest {

  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  @Test
  void schedule_saysThePlaceInTheQueueAndWhenTheSimShouldBeDone() {
    assertThat(Printed.schedule(new SimSchedule("s", 3, NOW.plusSeconds(150), "x"), NOW))
        .isEqualTo(", #3 in the queue, done in ~2m");
    assertThat(Printed.schedule(new SimSchedule("s", null, NOW.plusSeconds(5), "x"), NOW))
        .isEqualTo(", done in ~5.0s");
    assertThat(Printed.schedule(new SimSchedule("s", null, NOW.minusSeconds(5), "x"), NOW))
        .isEqualTo(", done any moment");
    assertThat(Printed.schedule(new SimSchedule("s", 1, null, null), NOW))
        .isEqualTo(", #1 in the queue");
    assertThat(Printed.schedule(null, NOW)).isEmpty();
  }

  @Test
  void entries_showATimeLimit() {
    assertThat(
            Printed.entries(
                List.of(
                    new RunEntry("SM90_H100", 2, Duration.ofMinutes(30)),
                    new RunEntry("SM90_H200", 1))))
        .isEqualTo("SM90_H100 x2 (at most 30m each), SM90_H200 x1");
  }

  @Test
  void count_isSingularForOneOnly() {
    assertThat(Printed.count(1, "sim")).isEqualTo("1 sim");
    assertThat(Printed.count(2, "sim")).isEqualTo("2 sims");
    assertThat(Printed.count(0, "kernel")).isEqualTo("0 kernels");
  }
}
