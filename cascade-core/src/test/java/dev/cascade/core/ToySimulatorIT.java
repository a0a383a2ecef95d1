package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.Measure.Aggregation;
import dev.cascade.core.Measure.Direction;
import dev.cascade.core.Measure.Source;
import dev.cascade.core.spi.FinishedKernel;
import dev.cascade.core.spi.LogEnd;
import dev.cascade.core.spi.OutputListener;
import dev.cascade.core.spi.OutputParser;
import dev.cascade.core.spi.Simulator;
import dev.cascade.core.testkit.TestApp;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "add a simulator" walk-through of docs/architecture.md, followed in test code: a toy
 * simulator with its own output format and one measure of its own runs through a real run (the
 * local launcher, the sim agent, the HTTP endpoints) to results, a comparison of two configs and
 * the CSV, with nothing of it in core.
 */
final class ToySimulatorIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  /**
   * The toy's output: a build line, a line per kernel, an end line. A config whose name ends in
   * H200 runs twice as fast and uses half the energy on its first kernel.
   */
  private static final String TOY_SCRIPT =
      """
      case "$CASCADE_GPU_CONFIG" in *H200) f=2 ;; *) f=1 ;; esac
      echo "toy-sim build 7"
      echo "KERNEL gemm cycles=$((1200 / f)) insts=4800 energy_uj=$((30 / f)).5"
      echo "KERNEL add cycles=$((600 / f)) insts=1200 energy_uj=9.25"
      echo "END ok"
      """;

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private TestApp app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stopUnfinishedSims();
      app.close();
    }
  }

  @Test
  void toySimulator_runsToResultsComparisonAndCsv() throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
    // The toy is the simulator the agent runs, and the builder is told how to read its output.
    app =
        TestApp.start(
            dir.resolve("data"),
            launcher,
            TestApp.agentCommandRunning(List.of("sh", "-c", TOY_SCRIPT)),
            0,
            settings -> settings.simulator(new ToySimulator()));
    Cascade cascade = app.cascade();

    Run run =
        cascade
            .runs()
            .create(
                DemoTraces.DEMO_ID,
                List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1)));
    await().atMost(WAIT).until(() -> cascade.runs().get(run.id()).state() != RunState.ACTIVE);

    Run done = cascade.runs().get(run.id());
    assertThat(done.state()).as(() -> done.sims().toString()).isEqualTo(RunState.SUCCEEDED);
    List<ConfigResult> results = cascade.results().compare(run.id());
    ConfigResult h100 = results.get(0);
    ConfigResult h200 = results.get(1);
    assertThat(h100.kernels()).extracting(KernelComparison::name).containsExactly("gemm", "add");
    assertThat(h100.total().cycles().values()).containsExactly(1800.0, 1800.0);
    assertThat(h200.total().cycles().mean()).isEqualTo(900);
    // The toy's own measure, compared unasked: the energy of its kernels added up.
    assertThat(h100.total().spread("energy_uj").mean()).isEqualTo(39.75);
    assertThat(h200.total().spread("energy_uj").mean()).isEqualTo(24.75);
    assertThat(Speedups.against(results, null).get(1).total().cycles().ratio()).isEqualTo(2.0);

    String csv = cascade.results().csv(run.id(), null, cascade.results().measures());
    assertThat(csv.lines().findFirst().orElseThrow()).contains(",energy_uj_mean,");
    assertThat(
            csv.lines().filter(line -> line.startsWith("SM90_H200,") && line.contains(",total,")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains(",24.75,0,24.75,24.75,")
        .endsWith(",lower");
    // Any value the toy printed can be asked for by name, as any Accel-Sim statistic can.
    assertThat(
            cascade
                .results()
                .compare(run.id(), Measures.parseList("insts"))
                .get(1)
                .kernels()
                .get(0)
                .spread("insts")
                .mean())
        .isEqualTo(4800);
  }

  @Test
  void simulatorsByName_listsEveryCandidateWhenNoneHasTheName() {
    assertThat(Simulators.byName("accel-sim").name()).isEqualTo("accel-sim");
    assertThatThrownBy(() -> Simulators.byName("gem5"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("no simulator called \"gem5\"")
        .hasMessageContaining("accel-sim");
  }

  /** A simulator of a format core has never seen. */
  static final class ToySimulator implements Simulator {

    static final Measure ENERGY =
        new Measure(
            "energy_uj",
            "Energy",
            "uJ",
            Direction.LOWER_IS_BETTER,
            "the energy the toy model estimates for the kernel, in microjoules",
            new Source.Statistic("energy_uj"),
            Aggregation.SUM);

    @Override
    public String name() {
      return "toy";
    }

    @Override
    public List<Measure> measures() {
      return Measures.withDefaults(List.of(ENERGY));
    }

    @Override
    public OutputParser parser(OutputListener listener) {
      return new ToyParser(listener);
    }
  }

  /** Lines of {@code KERNEL name key=value...}, a build line, and {@code END ok}. */
  private static final class ToyParser implements OutputParser {
    private final OutputListener listener;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final Map<String, Integer> instances = new HashMap<>();
    private LogEnd end = new LogEnd(LogEnd.State.INCOMPLETE, "no END line yet");

    ToyParser(OutputListener listener) {
      this.listener = listener;
    }

    @Override
    public void feed(byte[] bytes, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        if (bytes[i] == '\n') {
          line(line.toString(StandardCharsets.UTF_8));
          line.reset();
        } else {
          line.write(bytes[i]);
        }
      }
    }

    @Override
    public LogEnd finish() {
      if (line.size() > 0) {
        line(line.toString(StandardCharsets.UTF_8));
        line.reset();
      }
      return end;
    }

    @Override
    public LogEnd end() {
      return end;
    }

    private void line(String text) {
      String[] words = text.strip().split(" ");
      if (text.startsWith("toy-sim build ")) {
        listener.onBuild("toy-sim", words[2]);
      } else if (words[0].equals("KERNEL")) {
        Map<String, Number> values = new LinkedHashMap<>();
        for (int i = 2; i < words.length; i++) {
          String[] pair = words[i].split("=");
          values.put(
              pair[0],
              pair[1].contains(".") ? Double.parseDouble(pair[1]) : Long.parseLong(pair[1]));
        }
        int instance = instances.merge(words[1], 1, Integer::sum) - 1;
        listener.onKernelLaunched(words[1], 0);
        listener.onKernelFinished(new ToyKernel(words[1], instance, values));
      } else if (text.equals("END ok")) {
        end = new LogEnd(LogEnd.State.COMPLETE, "END ok");
        listener.onEnd(end);
      }
    }
  }

  private record ToyKernel(String name, int instance, Map<String, Number> values)
      implements FinishedKernel {
    @Override
    public long uid() {
      return 0;
    }

    @Override
    public long cycles() {
      return values.get("cycles").longValue();
    }

    @Override
    public long instructions() {
      return values.get("insts").longValue();
    }
  }
}
