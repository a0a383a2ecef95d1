package dev.cascade.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.EventStream;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.Run;
import dev.cascade.core.RunConfigProgress;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.RunQuery;
import dev.cascade.core.RunState;
import dev.cascade.core.RunSummary;
import dev.cascade.core.RunSummaryPage;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.SimState;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against a real server, whose sims the test plays through the core API. */
final class CascadeClientIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir java.nio.file.Path dataDir;
  private TestServer server;
  private CascadeClient client;

  @BeforeEach
  void start() throws Exception {
    server = new TestServer(dataDir);
    client = CascadeClient.connect(URI.create(server.url() + "/"), null);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void aRun_endToEnd_createsAwaitsAndComparesThroughTheClient() throws Exception {
    Run created =
        client
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1)));
    assertThat(created.state()).isEqualTo(RunState.ACTIVE);
    assertThat(created.sims()).hasSize(3);
    assertThat(client.runs().list()).extracting(Run::id).containsExactly(created.id());

    List<SimLaunch> launches = server.nextLaunches(3);
    for (SimLaunch sim : launches) {
      server.succeed(sim);
    }
    Run finished = client.runs().await(created.id(), TestServer.WAIT);

    assertThat(finished.state()).isEqualTo(RunState.SUCCEEDED);
    // As the wire shows them: latest_metrics may hold a number as an Integer or a Long, in any
    // order.
    assertThat(wire(finished)).isEqualTo(wire(server.engine.runs().get(created.id())));
    String simId = launches.get(0).simId();
    assertThat(wire(ApiJson.writeSim(client.runs().sim(simId))))
        .isEqualTo(wire(ApiJson.writeSim(server.engine.runs().sim(simId))));
    assertThat(client.runs().kernels(simId)).isEqualTo(server.engine.runs().kernels(simId));
    assertThat(client.runs().logTail(simId, 2)).isEqualTo(server.engine.runs().logTail(simId, 2));
    try (InputStream log = client.runs().log(simId)) {
      assertThat(new String(log.readAllBytes(), StandardCharsets.UTF_8))
          .startsWith("Accel-Sim [build accelsim-commit-test]");
    }
    List<ConfigResult> results = client.results().compare(created.id());
    assertThat(results).isEqualTo(server.engine.results().compare(created.id()));
    assertThat(client.results().csv(created.id()))
        .isEqualTo(server.engine.results().csv(created.id()));
  }

  @Test
  void events_resumeAfterAnId_withoutRepeats() throws Exception {
    Run run = client.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    server.succeed(server.nextLaunch());
    assertThat(client.runs().await(run.id(), TestServer.WAIT).state())
        .isEqualTo(RunState.SUCCEEDED);

    List<SimEvent> all = read(client.runs().events(run.id(), 0));
    List<SimEvent> rest = read(client.runs().events(run.id(), all.get(1).id()));

    assertThat(all).hasSizeGreaterThan(3);
    assertThat(rest).isEqualTo(all.subList(2, all.size()));
    assertThat(all.getLast().kind()).isEqualTo(SimEvent.Kind.SIM);
  }

  @Test
  void ownerPriorityTimeLimitAndSchedule_travelBothWays() throws Exception {
    Run first = client.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    server.succeed(server.nextLaunch());
    client.runs().await(first.id(), TestServer.WAIT);

    Run second =
        client
            .runs()
            .create(
                "demo",
                List.of(new RunEntry("SM90_H100", 1, Duration.ofMinutes(30))),
                new RunOptions("bob", 4));
    server.nextLaunch();
    String simId = second.sims().getFirst().id();
    org.awaitility.Awaitility.await()
        .atMost(TestServer.WAIT)
        .until(() -> server.engine.runs().sim(simId).launcherRef() != null);

    Run stored = server.engine.runs().get(second.id());
    assertThat(stored.owner()).isEqualTo("bob");
    assertThat(stored.priority()).isEqualTo(4);
    assertThat(stored.entries().getFirst().timeLimit()).isEqualTo(Duration.ofMinutes(30));
    assertThat(client.runs().get(second.id()).entries()).isEqualTo(stored.entries());
    Map<String, SimSchedule> schedule = client.runs().schedule(second.id());
    // The estimate of a sim past its expected length is "now", read at two moments here.
    assertThat(schedule.values())
        .extracting(SimSchedule::simId, SimSchedule::queuePosition, SimSchedule::basis)
        .isEqualTo(
            server.engine.runs().schedule(second.id()).values().stream()
                .map(
                    s ->
                        org.assertj.core.groups.Tuple.tuple(
                            s.simId(), s.queuePosition(), s.basis()))
                .toList());
    assertThat(schedule.get(simId).eta()).isNotNull();
    assertThat(schedule.get(simId).basis()).isEqualTo("1 earlier sim of this trace on SM90_H100");
  }

  @Test
  void runSummaries_areOneRequestForThePage_withEachRunsProgress() throws Exception {
    Run older = client.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    Run newer =
        client
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1)));
    SimLaunch sim = server.nextLaunchesByName(4).get("SM90_H200#0");
    server.heartbeat(sim);
    server.finishKernel(sim, 0);
    RunQuery query = RunQuery.firstPage().withLimit(1);
    await()
        .atMost(TestServer.WAIT)
        .untilAsserted(
            () -> assertThat(client.runSummaries(query).runs().getFirst().kernelsDone()).isOne());

    long before = server.server.responses(200);
    RunSummaryPage first = client.runSummaries(query);
    long requests = server.server.responses(200) - before;
    RunSummaryPage second = client.runSummaries(query.withCursor(first.nextCursor()));

    assertThat(requests).isOne();
    assertThat(first.runs()).extracting(RunSummary::id).containsExactly(newer.id());
    assertThat(first.runs().getFirst()).isEqualTo(RunSummary.of(client.runs().get(newer.id())));
    RunSummary summary = first.runs().getFirst();
    assertThat(summary.simCount()).isEqualTo(3);
    assertThat(summary.kernelsTotal()).isEqualTo(3L * TestServer.KERNELS);
    assertThat(summary.configs())
        .extracting(RunConfigProgress::gpuConfig, RunConfigProgress::kernelsDone)
        .containsExactly(tuple("SM90_H100", 0L), tuple("SM90_H200", 1L));
    assertThat(second.runs()).extracting(RunSummary::id).containsExactly(older.id());
    assertThat(second.nextCursor()).isNull();
  }

  @Test
  void cancel_endsTheRunCancelled() throws Exception {
    Run run = client.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));

    Run cancelled = client.runs().cancel(run.id());

    assertThat(cancelled.sims()).extracting(sim -> sim.state()).containsOnly(SimState.CANCELLED);
    assertThat(client.runs().await(run.id(), Duration.ofSeconds(5)).state())
        .isEqualTo(RunState.CANCELLED);
  }

  @Test
  void traces_andConfigs_areTheServersOwn() throws Exception {
    assertThat(client.traces().list()).extracting(Trace::id).contains("demo", "sample", "broken");
    assertThat(client.traces().get("demo")).isEqualTo(server.engine.traces().get("demo"));
    assertThat(client.traces().find("nope")).isEmpty();
    assertThat(client.traces().find("..")).isEmpty();
    assertThat(client.traces().await("broken", Duration.ofSeconds(5)).state())
        .isEqualTo(TraceState.FAILED);
    assertThat(client.configs())
        .extracting(GpuConfig::name)
        .containsExactlyElementsOf(
            server.engine.catalog().list().stream().map(GpuConfig::name).toList());
    assertThatThrownBy(() -> client.traces().folderOf("demo"))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("cascade traces push");
  }

  // ------------------------------------------------------------------ errors

  @Test
  void unknownRun_isNotFound_andFindIsEmpty() {
    assertThatThrownBy(() -> client.runs().get("r_01JD3N8X5S2Q7W4K9M6T1V0BZC"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
        .hasMessageContaining("r_01JD3N8X5S2Q7W4K9M6T1V0BZC");
    assertThat(client.runs().find("r_01JD3N8X5S2Q7W4K9M6T1V0BZC")).isEmpty();
  }

  @Test
  void sampleTrace_isAConflictNamingTheField() {
    assertThatThrownBy(() -> client.runs().create("sample", List.of(new RunEntry("SM90_H100", 1))))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
              assertThat(e.field()).isEqualTo("trace_id");
            });
  }

  @Test
  void unknownConfig_isInvalidNamingTheEntry() {
    assertThatThrownBy(
            () ->
                client
                    .runs()
                    .create(
                        "demo",
                        List.of(new RunEntry("SM90_H100", 1), new RunEntry("SM99_NOPE", 1))))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[1].gpu_config");
            })
        .hasMessageContaining("SM99_NOPE");
  }

  @Test
  void wrongOrMissingToken_isRefused() {
    try (HttpApi guarded =
            HttpApi.start(
                server.engine, ServerSettings.defaults().withPort(0).withToken("s3cret"));
        CascadeClient none = CascadeClient.connect(URI.create(guarded.url()), null);
        CascadeClient wrong = CascadeClient.connect(URI.create(guarded.url()), "wrong");
        CascadeClient right = CascadeClient.connect(URI.create(guarded.url()), "s3cret")) {
      assertThatThrownBy(() -> none.traces().list())
          .isInstanceOfSatisfying(
              CascadeException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHORIZED);
                assertThat(e.field()).isEqualTo("Authorization");
              });
      assertThatThrownBy(() -> wrong.traces().list())
          .isInstanceOfSatisfying(
              CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHORIZED));
      assertThat(right.traces().list()).isNotEmpty();
    }
  }

  @Test
  void unreachableServer_isUnavailable_namingTheUrl() {
    try (CascadeClient nowhere = CascadeClient.connect(URI.create("http://127.0.0.1:1"), null)) {
      assertThatThrownBy(() -> nowhere.runs().list())
          .isInstanceOfSatisfying(
              CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
          .hasMessage(
              "cannot reach Cascade at http://127.0.0.1:1 (connection refused); start it with"
                  + " ./cascade serve or set CASCADE_URL")
          .message()
          .doesNotContain("Exception");
    }
  }

  @Test
  void connect_refusesWhatIsNotAServerUrl() {
    assertThatThrownBy(() -> CascadeClient.connect(URI.create("localhost:8080"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"localhost:8080\" is not the URL of a Cascade server");
  }

  private static JsonNode wire(Run run) throws IOException {
    return wire(ApiJson.writeRun(run, Instant.EPOCH));
  }

  /** As a client would parse it: numbers by value, object fields in any order. */
  private static JsonNode wire(Object written) throws IOException {
    return JSON.readTree(ApiJson.toJson(written));
  }

  /** Every event the stream has now: stops once none came for a second. */
  private static List<SimEvent> read(EventStream stream) throws InterruptedException {
    try (stream) {
      List<SimEvent> events = new ArrayList<>();
      Optional<SimEvent> event;
      while ((event = stream.next(Duration.ofSeconds(1))).isPresent()) {
        events.add(event.get());
      }
      return events;
    }
  }
}
