package dev.cascade.slurm;

import static dev.cascade.core.testkit.TestApp.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.FailureClass;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.spi.LauncherStatus;
import dev.cascade.core.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Slurm's view in Cascade's state, on the real cluster: cancel, a held task, a time limit. */
final class SlurmStatesIT {

  /** About 350 s for the demo trace: longer than any of these tests. */
  private static final List<String> SLOW = TestApp.agentCommand("--speed", "100");

  @TempDir Path dir;
  private SlurmLauncherSettings settings;

  /** Every task a test submitted, cancelled after it whatever happened: none is left behind. */
  private final List<String> submitted = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeEach
  void cluster() {
    settings = SlurmCluster.settingsOrSkip();
  }

  @AfterEach
  void cancelWhatIsLeft() {
    try {
      if (settings != null) {
        SlurmLauncher cleaner = new SlurmLauncher(settings);
        submitted.forEach(cleaner::stop);
      }
    } finally {
      SlurmTestCleanup.stopEverythingUnder(settings, dir);
    }
  }

  private List<String> refsOf(TestApp app, Run run) {
    List<String> refs =
        app.cascade().runs().get(run.id()).sims().stream().map(Sim::launcherRef).toList();
    submitted.addAll(refs);
    return refs;
  }

  @Test
  void cancel_removesTheTasksFromTheQueue() throws Exception {
    try (SlurmLauncher launcher = new SlurmLauncher(settings);
        TestApp app = TestApp.start(dir, launcher, SLOW, 0, b -> b)) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 2)));
      app.awaitSims(run.id(), sim -> sim.state() == SimState.RUNNING);
      List<String> refs = refsOf(app, run);
      assertThat(launcher.status(refs).values())
          .extracting(LauncherStatus::phase)
          .containsOnly(LauncherStatus.Phase.RUNNING);

      app.cascade().runs().cancel(run.id());

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(launcher.status(refs))
                      .hasSize(2)
                      .allSatisfy(
                          (ref, status) -> {
                            assertThat(status.phase()).isEqualTo(LauncherStatus.Phase.ENDED);
                            assertThat(status.detail()).contains("CANCELLED");
                          }));
      assertThat(app.cascade().runs().get(run.id()).sims())
          .extracting(Sim::state)
          .containsOnly(SimState.CANCELLED);
    }
  }

  @Test
  void heldTask_staysQueuedWithSlurmsReasonPastTheHeartbeatGiveUp() throws Exception {
    SlurmLauncherSettings held = settings.withExtraArguments(List.of("--hold"));
    try (SlurmLauncher launcher = new SlurmLauncher(held);
        TestApp app =
            TestApp.start(
                dir,
                launcher,
                SLOW,
                0,
                b ->
                    b.heartbeatTimeout(Duration.ofSeconds(1))
                        .monitorInterval(Duration.ofMillis(500)))) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 2)));
      app.awaitSims(run.id(), sim -> sim.launcherRef() != null);
      List<String> refs = refsOf(app, run);

      // Ten times the heartbeat timeout fails a silent sim; a held one is not silent, it waits.
      Thread.sleep(Duration.ofSeconds(13));

      assertThat(app.cascade().runs().get(run.id()).sims())
          .allSatisfy(sim -> assertThat(sim.state()).as(sim.error()).isEqualTo(SimState.LAUNCHING));
      Map<String, LauncherStatus> statuses = launcher.status(refs);
      assertThat(statuses.values())
          .hasSize(2)
          .allSatisfy(
              status -> {
                assertThat(status.phase()).isEqualTo(LauncherStatus.Phase.QUEUED);
                assertThat(status.detail()).isEqualTo("Slurm state PENDING (JobHeldUser)");
              });

      // The API (and the UI from it) shows why they wait.
      HttpResponse<String> shown =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(app.server().url() + "/api/runs/" + run.id()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(shown.statusCode()).isEqualTo(200);
      assertThat(new ObjectMapper().readTree(shown.body()).get("sims"))
          .hasSize(2)
          .allSatisfy(
              sim ->
                  assertThat(sim.get("queued_reason").asText())
                      .isEqualTo("Slurm state PENDING (JobHeldUser)"));

      app.cascade().runs().cancel(run.id());
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(launcher.status(refs).values())
                      .extracting(LauncherStatus::phase)
                      .containsOnly(LauncherStatus.Phase.ENDED));
    }
  }

  @Test
  void taskKilledByItsTimeLimit_failsTheSimWithTimeout() throws Exception {
    SlurmLauncherSettings oneMinute = settings.withTimeLimit("1");
    try (SlurmLauncher launcher = new SlurmLauncher(oneMinute);
        TestApp app =
            TestApp.start(dir, launcher, SLOW, 0, b -> b.monitorInterval(Duration.ofSeconds(1)))) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 1)));
      await()
          .atMost(WAIT)
          .until(
              () ->
                  app.cascade().runs().get(run.id()).sims().getFirst().state() == SimState.RUNNING);
      refsOf(app, run);

      // Slurm enforces limits every 30 s or so: the minute is up within 90 s of the start. The
      // agent gets Slurm's SIGTERM and reports itself cancelled; Slurm's TIMEOUT goes in front.
      await()
          .atMost(Duration.ofSeconds(150))
          .until(
              () -> {
                Sim now = app.cascade().runs().get(run.id()).sims().getFirst();
                return now.state().isFinished()
                    && now.error() != null
                    && now.error().contains("TIMEOUT");
              });
      Sim sim = app.cascade().runs().get(run.id()).sims().getFirst();
      assertThat(sim.state()).isEqualTo(SimState.FAILED);
      assertThat(sim.error()).startsWith("Slurm state TIMEOUT (TimeLimit)");
      assertThat(sim.failureClass()).isEqualTo(FailureClass.TIMED_OUT);
    }
  }
}
