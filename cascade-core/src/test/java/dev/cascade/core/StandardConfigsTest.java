package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

final class StandardConfigsTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures")).resolve("accelsim");

  private static final String SMALL =
      """
      # Basefile Configs
      QV100:
          base_file: "$GPGPUSIM_ROOT/configs/tested-cfgs/SM7_QV100/gpgpusim.config"
      SASS:
          extra_params: "#SASS-Driven Accel-Sim"
      64SM:
          extra_params: "-gpgpu_n_clusters 64"
      L1OFF:
          extra_params: "-gmem_skip_L1D 1"
      POWER:
          extra_params: "-power_simulation_enabled 1
          \\n-power_simulation_mode 2"
      """;

  @Test
  void resolve_composesABaseAndItsExtrasInOrder() {
    StandardConfigs standard = StandardConfigs.parse(SMALL, "small.yml");

    StandardConfigs.Composed composed = standard.resolve("QV100-64SM-L1OFF").orElseThrow();

    assertThat(composed.baseFolder()).isEqualTo("SM7_QV100");
    assertThat(composed.params())
        .containsExactly(Map.entry("-gpgpu_n_clusters", "64"), Map.entry("-gmem_skip_L1D", "1"));
    assertThat(standard.resolve("QV100-SASS").orElseThrow().params()).isEmpty();
    assertThat(standard.resolve("QV100-POWER").orElseThrow().params())
        .containsExactly(
            Map.entry("-power_simulation_enabled", "1"), Map.entry("-power_simulation_mode", "2"));
  }

  @Test
  void resolve_isEmptyForANameThatIsNotComposed() {
    StandardConfigs standard = StandardConfigs.parse(SMALL, "small.yml");

    assertThat(standard.resolve("QV100-128SM")).isEmpty();
    assertThat(standard.resolve("64SM")).isEmpty();
    assertThat(standard.resolve("SM7_QV100")).isEmpty();
  }

  @Test
  void read_takesAccelSimsOwnFile() {
    Path file = FIXTURES.resolve("job-launching/define-standard-cfgs.yml");
    Assumptions.assumeTrue(Files.isRegularFile(file), "no fixture " + file);

    StandardConfigs standard = StandardConfigs.read(file);

    StandardConfigs.Composed composed = standard.resolve("RTX3070-SASS-64SM").orElseThrow();
    assertThat(composed.baseFolder()).isEqualTo("SM86_RTX3070");
    assertThat(composed.params()).containsExactly(Map.entry("-gpgpu_n_clusters", "64"));
  }

  @Test
  void catalogWithStandardConfigs_runsAComposedNameAsAVariantOfItsBase() throws Exception {
    Path tested = FIXTURES.resolve("tested-cfgs");
    Assumptions.assumeTrue(Files.isDirectory(tested), "no fixtures at " + tested);
    GpuConfigCatalog catalog =
        GpuConfigCatalog.fromFolder(tested)
            .withStandardConfigs(StandardConfigs.parse(SMALL, "small.yml"));
    Path dataDir = Files.createTempDirectory("standard-cfgs");
    dev.cascade.core.testkit.TestTraces.write(
        dataDir, "volta", 1, "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_70\"}");
    RecordingLauncher launcher = new RecordingLauncher();
    try (var engine =
        dev.cascade.core.internal.Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(catalog)
                .monitorInterval(java.time.Duration.ZERO)
                .uploadQuietPeriod(java.time.Duration.ofMillis(100))
                .traceRescanInterval(java.time.Duration.ofMillis(100))
                .simCommand(java.util.List.of("sim-agent", "--emulate"))
                .mainUrl("http://127.0.0.1:9999")
                .settings())) {
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(20))
          .until(
              () ->
                  engine
                      .traces()
                      .find("volta")
                      .map(t -> t.state() == TraceState.READY && t.traceGpuArch().equals("sm_70"))
                      .orElse(false));

      Run run =
          engine.runs().create("volta", java.util.List.of(new RunEntry("QV100-SASS-64SM", 1)));

      RunEntry entry = run.entries().getFirst();
      assertThat(entry.name()).isEqualTo("QV100-SASS-64SM");
      assertThat(entry.gpuConfig()).isEqualTo("SM7_QV100");
      assertThat(entry.params()).containsExactly(Map.entry("-gpgpu_n_clusters", "64"));
      assertThat(run.sims().getFirst().gpuConfig()).isEqualTo("QV100-SASS-64SM");
      assertThat(catalog.find("QV100-SASS-64SM").orElseThrow().sms()).isEqualTo(64);
      // Accel-Sim's file says -gmem_skip_L1D; the config's option is -gpgpu_gmem_skip_L1D.
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  engine.runs().create("volta", java.util.List.of(new RunEntry("QV100-L1OFF", 1))))
          .hasMessageContaining("does not set -gmem_skip_L1D")
          .hasMessageContaining("\"-gpgpu_gmem_skip_L1D\"");
    }
  }
}
