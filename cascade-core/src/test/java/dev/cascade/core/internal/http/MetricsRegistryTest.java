package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.SimState;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class MetricsRegistryTest {

  @Test
  void render_writesEveryFamilyWithHelpAndType() {
    MetricsRegistry metrics = new MetricsRegistry();

    String text = metrics.render(Map.of());

    for (String family :
        new String[] {
          "cascade_sims",
          "cascade_heartbeats_total",
          "cascade_chunks_received_total",
          "cascade_chunk_bytes_received_total",
          "cascade_sim_launch_latency_seconds",
          "cascade_sse_clients",
          "cascade_http_responses_total"
        }) {
      assertThat(text).contains("# HELP " + family + " ").contains("# TYPE " + family + " ");
    }
    assertThat(text).contains("cascade_sims{state=\"pending\"} 0").endsWith("\n");
  }

  @Test
  void launchLatency_isACumulativeHistogram() {
    MetricsRegistry metrics = new MetricsRegistry();

    metrics.launched(Duration.ofMillis(200));
    metrics.launched(Duration.ofSeconds(3));
    metrics.launched(Duration.ofMinutes(10));
    String text = metrics.render(Map.of());

    assertThat(text)
        .contains("cascade_sim_launch_latency_seconds_bucket{le=\"0.1\"} 0")
        .contains("cascade_sim_launch_latency_seconds_bucket{le=\"0.25\"} 1")
        .contains("cascade_sim_launch_latency_seconds_bucket{le=\"5\"} 2")
        .contains("cascade_sim_launch_latency_seconds_bucket{le=\"300\"} 2")
        .contains("cascade_sim_launch_latency_seconds_bucket{le=\"+Inf\"} 3")
        .contains("cascade_sim_launch_latency_seconds_sum 603.2")
        .contains("cascade_sim_launch_latency_seconds_count 3");
  }

  @Test
  void counters_countWhatTheyName() {
    MetricsRegistry metrics = new MetricsRegistry();

    metrics.heartbeat(SimState.RUNNING);
    metrics.heartbeat(SimState.FAILED);
    metrics.chunk(10, true);
    metrics.chunk(10, false);
    metrics.sseOpened();
    metrics.sseOpened();
    metrics.sseClosed();
    metrics.response(404);
    String text = metrics.render(Map.of(SimState.RUNNING, 4L));

    assertThat(text)
        .contains("cascade_sims{state=\"running\"} 4")
        .contains("cascade_heartbeats_total{state=\"running\"} 1")
        .contains("cascade_heartbeats_total{state=\"failed\"} 1")
        .contains("cascade_chunks_received_total 2")
        .contains("cascade_chunks_duplicate_total 1")
        .contains("cascade_chunk_bytes_received_total 20")
        .contains("cascade_sse_clients 1")
        .contains("cascade_http_responses_total{status=\"404\"} 1");
  }
}
