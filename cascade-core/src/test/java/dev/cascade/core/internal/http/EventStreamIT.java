package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EventStreamIT {

  @TempDir Path dataDir;
  private ApiServer server;
  private String runId;
  private List<String> sims;

  @BeforeEach
  void startWithARun() throws IOException {
    server =
        ApiServer.start(dataDir, settings -> settings.withSseKeepAlive(Duration.ofMillis(200)));
    JsonNode run = server.createRun(2);
    runId = run.get("id").asText();
    sims = ApiServer.simIds(run);
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 2);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private SseReader follow(String... headers) {
    return SseReader.open(server.http, server.uri("/api/runs/" + runId + "/events"), headers);
  }

  @Test
  void events_replayThePastThenFollowLiveChangesWithIds() throws Exception {
    try (SseReader stream = follow()) {
      assertThat(stream.response.statusCode()).isEqualTo(200);
      assertThat(stream.response.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
      // Created and launched: each sim was pending, then launching.
      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(() -> assertThat(stream.events).hasSizeGreaterThanOrEqualTo(4));
      int before = stream.events.size();

      server.heartbeat(sims.get(0), "{\"state\": \"running\"}");

      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(() -> assertThat(stream.events).hasSizeGreaterThan(before));
      SseReader.Event event = stream.events.getLast();
      assertThat(event.kind()).isEqualTo("sim");
      JsonNode data = ApiServer.JSON.readTree(event.data());
      assertThat(data.get("event_id").asLong()).isEqualTo(event.id());
      assertThat(data.get("run_id").asText()).isEqualTo(runId);
      assertThat(data.get("sim_id").asText()).isEqualTo(sims.get(0));
      assertThat(data.get("kind").asText()).isEqualTo("sim");
      assertThat(data.get("at").asText()).isNotBlank();
      assertThat(data.get("data").get("state").asText()).isEqualTo("running");
      assertThat(stream.ids()).isSorted().doesNotHaveDuplicates();
    }
  }

  @Test
  void events_resumeAfterLastEventIdWithoutAGapOrARepeat() {
    List<Long> seen = new ArrayList<>();
    long lastId;
    try (SseReader first = follow()) {
      server.heartbeat(sims.get(0), "{\"state\": \"running\"}");
      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(
              () ->
                  assertThat(first.events)
                      .anySatisfy(e -> assertThat(e.data()).contains("\"running\"")));
      seen.addAll(first.ids());
      lastId = seen.getLast();
    }
    // Changes while the client is away.
    server.heartbeat(sims.get(1), "{\"state\": \"running\"}");
    server.heartbeat(sims.get(0), "{\"state\": \"failed\", \"error\": \"boom\"}");

    try (SseReader resumed = follow("Last-Event-ID", Long.toString(lastId))) {
      server.heartbeat(sims.get(1), "{\"state\": \"succeeded\"}");
      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(
              () ->
                  assertThat(resumed.events)
                      .anySatisfy(e -> assertThat(e.data()).contains("\"succeeded\"")));
      seen.addAll(resumed.ids());
    }

    try (SseReader everything = follow()) {
      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(() -> assertThat(everything.ids()).isEqualTo(seen));
    }
    assertThat(seen).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void events_resumeWithTheAfterQueryParameter() {
    long firstId;
    try (SseReader all = follow()) {
      await().atMost(ApiServer.WAIT).until(() -> all.events.size() >= 4);
      firstId = all.events.getFirst().id();
    }

    try (SseReader after =
        SseReader.open(
            server.http, server.uri("/api/runs/" + runId + "/events?after=" + firstId))) {
      await().atMost(ApiServer.WAIT).until(() -> after.events.size() >= 3);
      assertThat(after.events.getFirst().id()).isGreaterThan(firstId);
    }
  }

  @Test
  void events_sendKeepaliveCommentsWhileIdle() {
    try (SseReader stream = follow()) {
      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(() -> assertThat(stream.comments).contains(": keepalive"));
    }
  }

  @Test
  void events_clientGoingAwayClosesTheStream() {
    SseReader first = follow();
    SseReader second = follow();
    await().atMost(ApiServer.WAIT).until(() -> server.api.eventStreamClients() == 2);
    assertThat(server.get("/metrics").body()).contains("cascade_sse_clients 2");

    first.close();

    await().atMost(ApiServer.WAIT).until(() -> server.api.eventStreamClients() == 1);
    second.close();
    await().atMost(ApiServer.WAIT).until(() -> server.api.eventStreamClients() == 0);
    assertThat(server.get("/metrics").body()).contains("cascade_sse_clients 0");
  }

  @Test
  void events_closingTheServerEndsOpenStreams() {
    SseReader stream = follow();
    await().atMost(ApiServer.WAIT).until(() -> server.api.eventStreamClients() == 1);

    server.api.close();

    await().atMost(ApiServer.WAIT).until(stream::ended);
    assertThat(server.api.eventStreamClients()).isZero();
  }

  @Test
  void events_refuseAnUnknownRunAndABadLastEventId() {
    Response unknown = server.get("/api/runs/r_nope/events");
    Response bad = server.get("/api/runs/" + runId + "/events", "Last-Event-ID", "yesterday");

    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("not_found");
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.errorField()).isEqualTo("Last-Event-ID");
  }
}
