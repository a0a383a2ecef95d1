package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/gc} drops the logs of finished sims older than its limit, never their results,
 * and the kernel-window folders of finished sims; the run's storage says so; a limit it cannot read
 * is refused naming the field and the value.
 */
final class LogRetentionIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;

  @Test
  void gc_dropsOldLogsAndFinishedWindows_keepsResults_andSaysSoInTheRunsStorage() throws Exception {
    try (TestServer cascade = new TestServer(dataDir)) {
      String runId =
          cascade.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2))).id();
      List<SimLaunch> sims = cascade.nextLaunches(2);
      for (SimLaunch sim : sims) {
        cascade.succeed(sim);
      }
      await()
          .atMost(TestServer.WAIT)
          .until(() -> cascade.engine.runs().get(runId).state() == RunState.SUCCEEDED);
      Path window = dataDir.resolve("work/windows").resolve(sims.get(0).simId());
      Files.createDirectories(window.resolve("traces"));
      Files.writeString(window.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
      Files.createDirectories(dataDir.resolve("work/windows/s_unknown"));

      JsonNode before = get(cascade, "/api/runs/" + runId).path("storage");
      assertThat(before.path("log_bytes").asLong()).isPositive();
      assertThat(before.path("sims_with_logs_dropped").asInt()).isZero();

      HttpResponse<String> kept = post(cascade, "{\"older_than\": \"30d\"}");
      assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
      assertThat(JSON.readTree(kept.body()).path("sims").asInt()).isZero();
      assertThat(JSON.readTree(kept.body()).path("folders").asInt())
          .as("the finished sim's window, and one of a sim the database does not know")
          .isEqualTo(2);
      assertThat(window).doesNotExist();

      HttpResponse<String> dropped = post(cascade, "{\"older_than\": \"0\"}");
      assertThat(dropped.statusCode()).as(dropped.body()).isEqualTo(200);
      JsonNode collection = JSON.readTree(dropped.body());
      assertThat(collection.path("sims").asInt()).isEqualTo(2);
      assertThat(collection.path("runs").asInt()).isEqualTo(1);
      assertThat(collection.path("log_bytes").asLong())
          .isEqualTo(before.path("log_bytes").asLong());

      JsonNode after = get(cascade, "/api/runs/" + runId).path("storage");
      assertThat(after.path("log_bytes").asLong()).isZero();
      assertThat(after.path("sims_with_logs_dropped").asInt()).isEqualTo(2);
      assertThat(after.path("stats_stored_bytes").asLong()).isPositive();
      try (InputStream log = cascade.engine.runs().log(sims.get(0).simId())) {
        assertThat(log.readAllBytes()).isEmpty();
      }
      assertThat(cascade.engine.runs().kernels(sims.get(0).simId()))
          .hasSize(TestServer.KERNELS)
          .allSatisfy(kernel -> assertThat(kernel.stats()).containsKey("gpu_sim_cycle"));
      assertThat(cascade.engine.results().compare(runId))
          .singleElement()
          .satisfies(config -> assertThat(config.kernels()).hasSize(TestServer.KERNELS));
    }
  }

  @Test
  void gc_refusesALimitItCannotRead_namingTheFieldAndTheValue() throws Exception {
    try (TestServer cascade = new TestServer(dataDir)) {
      HttpResponse<String> refused = post(cascade, "{\"older_than\": \"30 days\"}");
      assertThat(refused.statusCode()).isEqualTo(422);
      JsonNode error = JSON.readTree(refused.body()).path("error");
      assertThat(error.path("field").asText()).isEqualTo("older_than");
      assertThat(error.path("message").asText()).contains("\"30 days\"").contains("30d");
      assertThat(cascade.engine.storage().collect(Duration.ofDays(1)).sims()).isZero();
    }
  }

  private static JsonNode get(TestServer cascade, String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(cascade.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> post(TestServer cascade, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(cascade.url() + "/api/gc"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
