package dev.cascade.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.agent.SimAgentMain;
import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeServer;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.TraceState;
import dev.cascade.core.spi.Launcher;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.tukaani.xz.XZInputStream;

/**
 * Cascade as {@code cascade serve} runs it, for the launcher modules' tests (Sail, Slurm): the app
 * on a data dir seeded with the demo trace, its HTTP server (which sims report to), and the
 * launcher it was given. Sims are real sim agents ({@link #agentCommand}) running the emulator.
 */
public final class TestApp implements AutoCloseable {

  public static final String TRACE = DemoTraces.DEMO_ID;
  public static final Duration WAIT = Duration.ofSeconds(90);

  private final Cascade cascade;
  private final CascadeServer server;
  private final Launcher launcher;

  private TestApp(Cascade cascade, CascadeServer server, Launcher launcher) {
    this.cascade = cascade;
    this.server = server;
    this.launcher = launcher;
  }

  /**
   * Starts Cascade on {@code dataDir} (seeding the demo trace the first time) with {@code launcher}
   * and {@code simCommand}, serves it on {@code port} (0 picks one), and waits for the demo trace
   * to be ready.
   */
  public static TestApp start(
      Path dataDir,
      Launcher launcher,
      List<String> simCommand,
      int port,
      UnaryOperator<CascadeSettings.Builder> settings)
      throws IOException {
    DemoTraces.seedIfEmpty(dataDir);
    Cascade cascade =
        settings
            .apply(
                Cascade.builder()
                    .dataDir(dataDir)
                    .launcher(launcher)
                    .catalog(GpuConfigCatalog.builtIn())
                    .uploadQuietPeriod(Duration.ofMillis(100))
                    .traceRescanInterval(Duration.ofMillis(100))
                    .finishedStopDelay(Duration.ofMillis(200))
                    .simCommand(simCommand)
                    .server(ServerSettings.defaults().withPort(port)))
            .build()
            .start();
    CascadeServer server = cascade.server().orElseThrow();
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade.traces().find(TRACE).map(t -> t.state() == TraceState.READY).orElse(false));
    return new TestApp(cascade, server, launcher);
  }

  /** The app. */
  public Cascade cascade() {
    return cascade;
  }

  /** The app's HTTP server, which sims report to. */
  public CascadeServer server() {
    return server;
  }

  public Run create(List<RunEntry> entries) {
    return cascade.runs().create(TRACE, entries);
  }

  /** Waits for the run to finish and returns it. */
  public Run awaitFinished(String runId) {
    await().atMost(WAIT).until(() -> cascade.runs().get(runId).state() != RunState.ACTIVE);
    return cascade.runs().get(runId);
  }

  /** Waits until every sim of the run meets {@code condition}. */
  public void awaitSims(String runId, Predicate<Sim> condition) {
    await().atMost(WAIT).until(() -> cascade.runs().get(runId).sims().stream().allMatch(condition));
  }

  /**
   * Runs {@code entries} on a fresh app on {@code dataDir} with the {@link LocalLauncher} and
   * {@code simCommand}, and returns its results: what every other launcher's run must give.
   */
  public static List<ConfigResult> localResults(
      Path dataDir, List<String> simCommand, List<RunEntry> entries) throws IOException {
    try (LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(2));
        TestApp app = start(dataDir, launcher, simCommand, 0, b -> b)) {
      Run run = app.awaitFinished(app.create(entries).id());
      assertThat(run.state()).as("the local launcher's run").isEqualTo(RunState.SUCCEEDED);
      return app.cascade.results().compare(run.id());
    }
  }

  /** Asserts that every sim of the run succeeded, naming the error of any that did not. */
  public static void assertAllSucceeded(Run run) {
    assertThat(run.sims())
        .allSatisfy(
            sim ->
                assertThat(sim.state())
                    .as(sim.id() + ": " + sim.error())
                    .isEqualTo(SimState.SUCCEEDED));
  }

  /**
   * Stops, through the launcher, every sim of every run that has not finished: Cascade's own close
   * leaves sims running (they outlive a restart), which a test must not.
   */
  public void stopUnfinishedSims() {
    for (Run run : cascade.runs().list()) {
      for (Sim sim : run.sims()) {
        if (!sim.state().isFinished() && sim.launcherRef() != null) {
          launcher.stop(sim.launcherRef());
        }
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      cascade.close();
    }
  }

  /**
   * The sim agent running the emulator inside its own JVM, reporting every 200 ms, as {@code
   * CASCADE_SIM_CMD}: {@code java -cp ... SimAgentMain ... --emulate EMULATOR_ARGS}.
   */
  public static List<String> agentCommand(String... emulatorArgs) {
    List<String> command = agentPrefix();
    command.add("--emulate");
    command.addAll(List.of(emulatorArgs));
    return command;
  }

  /**
   * The sim agent running {@code simulator} as its simulator process, reporting every 200 ms:
   * {@code java -cp ... SimAgentMain ... -- SIMULATOR}.
   */
  public static List<String> agentCommandRunning(List<String> simulator) {
    List<String> command = agentPrefix();
    command.add("--");
    command.addAll(simulator);
    return command;
  }

  private static List<String> agentPrefix() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Xshare:auto",
            "--enable-native-access=ALL-UNNAMED"));
    command.add("-cp");
    command.add(classPathOf(SimAgentMain.class, KernelsList.class, XZInputStream.class));
    command.add(SimAgentMain.class.getName());
    command.addAll(
        List.of(
            "--heartbeat-millis", "200", "--chunk-millis", "100", "--backoff-max-millis", "300"));
    return command;
  }

  private static String classPathOf(Class<?>... classes) {
    Set<String> entries = new LinkedHashSet<>();
    for (Class<?> type : classes) {
      try {
        entries.add(
            Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException("cannot locate the classes of " + type, e);
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
