package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class MetricsIT {

  private static final Pattern SAMPLE =
      Pattern.compile(
          "[a-z_]+(\\{[a-z]+=\"[^\"]*\"\\})? -?[0-9.eE+-]+|[a-z_]+\\{le=\"\\+Inf\"\\} [0-9]+");

  @TempDir Path dataDir;
  private ApiServer server;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void metrics_countSimsHeartbeatsChunksAndLaunches() {
    JsonNode run = server.createRun(2);
    List<String> sims = ApiServer.simIds(run);
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 2);
    server.heartbeat(sims.get(0), "{\"state\": \"running\"}");
    server.heartbeat(sims.get(0), "{\"state\": \"running\"}");
    server.chunk(sims.get(0), 0, "12345");
    server.chunk(sims.get(0), 0, "12345");
    server.chunk(sims.get(0), 1, "678");

    Response metrics = server.get("/metrics");

    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    String text = metrics.body();
    assertThat(text)
        .contains("# TYPE cascade_sims gauge")
        .contains("cascade_sims{state=\"running\"} 1")
        .contains("cascade_sims{state=\"launching\"} 1")
        .contains("# TYPE cascade_heartbeats_total counter")
        .contains("cascade_heartbeats_total{state=\"running\"} 2")
        .contains("cascade_chunks_received_total 3")
        .contains("cascade_chunks_duplicate_total 1")
        .contains("cascade_chunk_bytes_received_total 13")
        .contains("# TYPE cascade_sim_launch_latency_seconds histogram")
        .contains("cascade_sim_launch_latency_seconds_count 1")
        .contains("cascade_sim_launch_latency_seconds_bucket{le=\"+Inf\"} 1")
        .contains("cascade_sse_clients 0")
        .contains("cascade_http_responses_total{status=\"201\"} 1");
    for (String line : text.split("\n")) {
      if (!line.startsWith("#")) {
        assertThat(line).matches(SAMPLE);
      }
    }
  }
}
