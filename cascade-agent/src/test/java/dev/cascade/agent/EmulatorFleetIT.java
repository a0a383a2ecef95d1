package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.accelsim.stats.LogSummary;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.TestTraces;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EmulatorFleetIT {

  @TempDir Path dir;

  private final FakeApp app = new FakeApp();
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private Path trace;

  @BeforeEach
  void setUp() throws Exception {
    app.startOn(0);
    trace =
        TestTraces.write(
            dir.resolve("trace"),
            List.of(
                TestTraces.kernel("_Z4axpyPfS_", 64),
                TestTraces.kernel("_Z6reducePf", 8),
                TestTraces.kernel("_Z4axpyPfS_", 64)));
  }

  @AfterEach
  void tearDown() {
    app.close();
  }

  private List<EmulatorFleet.Member> members(int count) {
    List<EmulatorFleet.Member> members = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      app.addSim("s_" + i, "token-" + i);
      members.add(new EmulatorFleet.Member("s_" + i, "token-" + i, i % 4));
    }
    return members;
  }

  private EmulatorFleet.Report run(List<EmulatorFleet.Member> members, double speed)
      throws Exception {
    return EmulatorFleet.builder()
        .mainUrl(app.url())
        .emulatorOptions(EmulatorOptions.of(trace, "SM90_H100").withSpeed(speed))
        .members(members)
        .heartbeatInterval(Duration.ofMillis(100))
        .chunks(4096, Duration.ofMillis(100))
        .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
        .log(new PrintStream(log, true, StandardCharsets.UTF_8))
        .build()
        .run();
  }

  @Test
  void fiftySims_deliverEveryChunkInOrderOnOneLoop() throws Exception {
    List<EmulatorFleet.Member> members = members(50);

    EmulatorFleet.Report report = run(members, 20_000);

    assertThat(report.succeeded()).as(log::toString).isEqualTo(50);
    assertThat(report.unfinished()).isZero();
    assertThat(report.lostChunks()).isZero();
    assertThat(report.heartbeats()).isGreaterThan(100);
    assertThat(report.heartbeatP99()).isPositive();
    long chunks = 0;
    for (EmulatorFleet.Member member : members) {
      FakeApp.SimRecord sim = app.sim(member.simId());
      LogSummary summary = LogSummary.parse(sim.text());
      assertThat(summary.complete()).isTrue();
      assertThat(summary.kernels()).hasSize(3);
      assertThat(sim.arrivals).isSorted().doesNotHaveDuplicates();
      assertThat(sim.accepted())
          .hasValueSatisfying(h -> assertThat(h).containsEntry("state", "succeeded"));
      chunks += sim.chunks.size();
    }
    assertThat(report.chunks()).isEqualTo(chunks);
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("50 sims: 50 succeeded");
  }

  @Test
  void membersAddedWhileTheFleetRuns_finishAndEveryAcceptedChunkIsWatched() throws Exception {
    Map<String, ByteArrayOutputStream> watched = new ConcurrentHashMap<>();
    try (FleetRun fleet =
        EmulatorFleet.builder()
            .mainUrl(app.url())
            .heartbeatInterval(Duration.ofMillis(100))
            .chunks(2048, Duration.ofMillis(100))
            .onAccepted(
                (member, seq, bytes) ->
                    watched
                        .computeIfAbsent(member.simId(), id -> new ByteArrayOutputStream())
                        .writeBytes(bytes))
            .log(new PrintStream(log, true, StandardCharsets.UTF_8))
            .build()
            .start()) {
      List<EmulatorFleet.Member> members = members(6);
      for (EmulatorFleet.Member member : members) {
        fleet.add(
            member,
            EmulatorOptions.of(trace, member.replica() % 2 == 0 ? "SM90_H100" : "SM80_A100")
                .withReplica(member.replica())
                .withSpeed(50_000));
        Thread.sleep(20); // later members join a loop that is already busy with the first
      }

      EmulatorFleet.Report report = fleet.await(members.size(), Duration.ofSeconds(60));

      assertThat(report.succeeded()).as(log::toString).isEqualTo(6);
      assertThat(report.members()).isEqualTo(6);
      for (EmulatorFleet.Member member : members) {
        FakeApp.SimRecord sim = app.sim(member.simId());
        assertThat(sim.chunks).hasSizeGreaterThan(1);
        assertThat(watched.get(member.simId()).toByteArray()).isEqualTo(sim.output());
      }
      assertThat(app.sim("s_1").text()).contains("SM80_A100");
    }
  }

  @Test
  void maxInFlight_capsTheRequestsOpenAtOnceAcrossMembers() throws Exception {
    app.delay(20);
    List<EmulatorFleet.Member> members = members(30);

    EmulatorFleet.Report report =
        EmulatorFleet.builder()
            .mainUrl(app.url())
            .emulatorOptions(EmulatorOptions.of(trace, "SM90_H100").withSpeed(0))
            .members(members)
            .heartbeatInterval(Duration.ofMillis(50))
            .chunks(4096, Duration.ofMillis(100))
            .maxInFlight(3)
            .log(new PrintStream(log, true, StandardCharsets.UTF_8))
            .build()
            .run();

    assertThat(report.succeeded()).as(log::toString).isEqualTo(30);
    assertThat(app.peakOpen()).isBetween(1, 3);
  }

  @Test
  void appAnswering503_isRetriedAndTheFirstReasonsAreLogged() throws Exception {
    app.refuseChunks(3);
    List<EmulatorFleet.Member> members = members(2);

    EmulatorFleet.Report report = run(members, 0);

    String printed = log.toString(StandardCharsets.UTF_8);
    assertThat(app.refusedChunks())
        .as("chunks the app answered 503; the fleet printed:%n%s", printed)
        .isEqualTo(3);
    assertThat(report.succeeded())
        .as("sims that succeeded; the fleet printed:%n%s", printed)
        .isEqualTo(2);
    assertThat(report.retries())
        .as("retries the fleet counted for 3 refused chunks (%s)", report.summary())
        .isEqualTo(3);
    assertThat(printed.lines().filter(line -> line.contains("trying again: ")).toList())
        .as("the lines saying why a request is tried again, in:%n%s", printed)
        .hasSize(3)
        .allSatisfy(line -> assertThat(line).contains("503"));
  }

  @Test
  void cancelledSim_stopsAndTheOthersFinish() throws Exception {
    List<EmulatorFleet.Member> members = members(3);
    app.sim("s_1").cancel = true;

    EmulatorFleet.Report report = run(members, 5_000);

    assertThat(report.cancelled()).isEqualTo(1);
    assertThat(report.succeeded()).isEqualTo(2);
  }

  @Test
  void chunkTheAppLostAfterAcceptingIt_isCountedAsLost() throws Exception {
    List<EmulatorFleet.Member> members = members(2);
    app.sim("s_0").loseOnce.add(0L);

    EmulatorFleet.Report report = run(members, 0);

    assertThat(report.lostChunks()).isEqualTo(1);
    assertThat(report.unfinished()).isEqualTo(1);
    assertThat(report.succeeded()).isEqualTo(1);
    assertThat(log.toString(StandardCharsets.UTF_8))
        .contains("the app lost chunks it had accepted");
  }
}
