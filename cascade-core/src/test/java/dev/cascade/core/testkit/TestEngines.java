package dev.cascade.core.testkit;

import static org.awaitility.Awaitility.await;

import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.spi.Launcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Engines as the engine-level tests open them: the built-in catalog, no monitor thread (a test
 * moves time itself), quick trace scans, sims stopped as soon as they end, and a sim command the
 * test's launcher records rather than runs. A test changes what it needs on the builder ({@code
 * .clock(clock)}, {@code .catalog(...)}, {@code .simCommand(...)}) before {@link #start}.
 */
public final class TestEngines {

  /** The app's address the sims are told; nothing listens there. */
  public static final String MAIN_URL = "http://127.0.0.1:9999";

  private TestEngines() {}

  /** The settings of an engine on {@code dataDir} whose sims {@code launcher} launches. */
  public static CascadeSettings.Builder settings(Path dataDir, Launcher launcher) {
    return CascadeSettings.builder()
        .dataDir(dataDir)
        .launcher(launcher)
        .catalog(GpuConfigCatalog.builtIn())
        .monitorInterval(Duration.ZERO)
        .uploadQuietPeriod(Duration.ofMillis(100))
        .traceRescanInterval(Duration.ofMillis(100))
        .finishedStopDelay(Duration.ZERO)
        .simCommand(List.of("sim-agent", "--emulate"))
        .mainUrl(MAIN_URL);
  }

  /**
   * Opens an engine on {@code settings}, starts its launching, and waits up to {@code wait} for the
   * trace {@code traceId} (already written to the data dir) to be ready.
   */
  public static Engine start(CascadeSettings settings, String traceId, Duration wait) {
    Engine engine = Engine.open(settings);
    try {
      engine.startLaunching(MAIN_URL);
      await()
          .atMost(wait)
          .until(
              () ->
                  engine
                      .traces()
                      .find(traceId)
                      .map(trace -> trace.state() == TraceState.READY)
                      .orElse(false));
      return engine;
    } catch (RuntimeException | Error e) {
      engine.close();
      throw e;
    }
  }
}
