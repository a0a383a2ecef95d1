package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sim whose measured peak cannot fit what sims may have is failed at once with the figures, never
 * launched, instead of waiting for ever; the prediction comes from the database after a restart.
 */
final class MemoryRefusalTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final long MIB = 1024L * 1024;

  @TempDir Path dataDir;
  private Engine engine;

  @BeforeEach
  void trace() throws IOException {
    Assumptions.assumeTrue(
        Files.isReadable(Path.of("/proc/meminfo")), "admission by memory reads /proc/meminfo");
    TestTraces.writeReady(dataDir, "demo", 3);
  }

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
  }

  private Engine open() {
    Engine opened =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(new LocalLauncher(Duration.ofSeconds(1), 2))
                .catalog(GpuConfigCatalog.builtIn())
                .memory(MemorySettings.defaults().withReserveBytes(0).withSimLimitBytes(1024 * MIB))
                .monitorInterval(Duration.ZERO)
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .simCommand(List.of("no-such-simulator-here"))
                .mainUrl("http://127.0.0.1:9999")
                .settings());
    opened.startLaunching("http://127.0.0.1:9999");
    await()
        .atMost(WAIT)
        .until(
            () ->
                opened.traces().find("demo").map(t -> t.state() == TraceState.READY).orElse(false));
    return opened;
  }

  private Run finished(Run run) {
    await().atMost(WAIT).until(() -> engine.runs().get(run.id()).state() != RunState.ACTIVE);
    return engine.runs().get(run.id());
  }

  @Test
  void aSimMeasuredAboveTheSimsLimit_failsAtOnceWithTheFigures_afterARestart() throws Exception {
    engine = open();
    Sim earlier =
        finished(engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1))))
            .sims()
            .getFirst();
    engine.close();
    // As if that sim had run and peaked at 2 GiB.
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("cascade.db"));
        PreparedStatement peak =
            db.prepareStatement("UPDATE sims SET peak_memory_bytes = ? WHERE id = ?")) {
      peak.setLong(1, 2048 * MIB);
      peak.setString(2, earlier.id());
      assertThat(peak.executeUpdate()).isEqualTo(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    engine = open();

    Sim refused =
        finished(engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1))))
            .sims()
            .getFirst();

    assertThat(refused.state()).isEqualTo(SimState.FAILED);
    assertThat(refused.failureClass()).isEqualTo(FailureClass.LAUNCH_FAILED);
    assertThat(refused.launcherRef()).as("never launched").isNull();
    assertThat(refused.error())
        .isEqualTo(
            "launch failed: not enough memory: it needs about 2048 MiB at its peak (predicted),"
                + " more than this machine can give a sim: the sims' memory limit is 1024 MiB"
                + " (predicted from earlier sims of this trace on SM90_H100); give sims more"
                + " memory (CASCADE_MEMORY_RESERVE, CASCADE_SIM_MEMORY_LIMIT) or run it on a"
                + " bigger machine");
  }
}
