package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class BackoffTest {

  @Test
  void waits_doubleUpToTheCapAndStartOverAfterASuccess() {
    Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(10), false);
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      waits.add(backoff.next().toMillis());
    }

    assertThat(waits).containsExactly(250L, 500L, 1000L, 2000L, 4000L, 8000L, 10000L, 10000L);
    assertThat(backoff.failures()).isEqualTo(8);
    backoff.reset();
    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void jitter_onlyShortensAWaitByUpToAFifth() {
    Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), true);

    for (int i = 0; i < 100; i++) {
      assertThat(backoff.next().toMillis()).isBetween(800L, 1000L);
    }
  }

  @Test
  void badSettings_areRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), false))
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), false))
        .hasMessageContaining("must not be below");
  }
}
