package dev.cascade.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.config.GpgpusimConfig;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestEngines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Variants and sweeps through the engine on the built-in catalog: names, the effective config each
 * sim is given, provenance and reuse per variant, and the refusals.
 */
final class VariantRunTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private RecordingLauncher launcher;
  private Engine engine;

  @BeforeEach
  void startWithAReadyTrace() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 2);
    launcher = new RecordingLauncher();
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, launcher).clock(clock).settings(), "demo", WAIT);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private static Map<String, String> params(String... nameValue) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      params.put(nameValue[i], nameValue[i + 1]);
    }
    return params;
  }

  private SimLaunch launchOf(String simId) {
    await()
        .atMost(WAIT)
        .until(() -> launcher.launches.stream().anyMatch(l -> l.simId().equals(simId)));
    return launcher.launches.stream()
        .filter(l -> l.simId().equals(simId))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void variant_isNamedByItsParams_andItsSimsGetTheEffectiveConfigFolder() throws IOException {
    Run run =
        engine
            .runs()
            .create(
                "demo",
                List.of(
                    new RunEntry("SM90_H100", 1),
                    RunEntry.variant("SM90_H100", 2, params("-gpgpu_n_clusters", "66"))));

    assertThat(run.sims())
        .extracting(Sim::gpuConfig)
        .containsExactly(
            "SM90_H100", "SM90_H100 -gpgpu_n_clusters=66", "SM90_H100 -gpgpu_n_clusters=66");
    SimLaunch base = launchOf(run.sims().get(0).id());
    SimLaunch variant = launchOf(run.sims().get(1).id());
    assertThat(base.contract().gpuConfigDir()).isNull();
    assertThat(variant.contract().gpuConfig()).isEqualTo("SM90_H100 -gpgpu_n_clusters=66");
    Path folder = variant.contract().gpuConfigDir();
    assertThat(folder.getFileName()).hasToString("SM90_H100");
    assertThat(folder).startsWith(dataDir.resolve("work").resolve("configs"));
    GpgpusimConfig effective = GpgpusimConfig.read(folder.resolve("gpgpusim.config"));
    assertThat(effective.value("gpgpu_n_clusters")).contains("66");
    assertThat(effective.all("gpgpu_n_clusters")).hasSize(1);
    assertThat(effective.smCount()).hasValue(66);
    assertThat(Files.readString(folder.resolve("variant.config"))).contains("-gpgpu_n_clusters 66");
    // The catalog knows the variant by name from now on, with the effective SM count.
    assertThat(engine.catalog().find("SM90_H100 -gpgpu_n_clusters=66").orElseThrow().sms())
        .isEqualTo(66);
    // Provenance: each variant hashes its own files; both replicas the same.
    assertThat(run.sims().get(1).provenance().configHash())
        .isNotEqualTo(run.sims().get(0).provenance().configHash())
        .isEqualTo(run.sims().get(2).provenance().configHash());
    // The stored run keeps the params.
    RunEntry stored = engine.runs().get(run.id()).entries().get(1);
    assertThat(stored.params()).containsEntry("-gpgpu_n_clusters", "66");
    assertThat(stored.name()).isEqualTo("SM90_H100 -gpgpu_n_clusters=66");
  }

  @Test
  void sweep_expandsToTheCartesianProduct_eachWithTheEntrysCount() {
    RunEntry sweep =
        new RunEntry("SM90_H100", 2)
            .withSweep(new LinkedHashMap<>(Map.of("-gpgpu_n_clusters", List.of("66", "132"))));
    Map<String, List<String>> two = new LinkedHashMap<>();
    two.put("-gpgpu_n_clusters", List.of("66", "132"));
    two.put(
        "-gpgpu_cache:dl2",
        List.of(
            "S:128:128:16,L:B:m:L:X,A:192:4,32:0,32", "S:256:128:16,L:B:m:L:X,A:192:4,32:0,32"));
    Run run = engine.runs().create("demo", List.of(sweep.withSweep(two)));

    assertThat(run.entries()).hasSize(4).allSatisfy(entry -> assertThat(entry.sweep()).isEmpty());
    assertThat(run.sims()).hasSize(8);
    assertThat(run.entries())
        .extracting(RunEntry::name)
        .containsExactly(
            "SM90_H100 -gpgpu_n_clusters=66 -gpgpu_cache:dl2=S:128:128:16,L:B:m:L:X,A:192:4,32:0,32",
            "SM90_H100 -gpgpu_n_clusters=66 -gpgpu_cache:dl2=S:256:128:16,L:B:m:L:X,A:192:4,32:0,32",
            "SM90_H100 -gpgpu_n_clusters=132 -gpgpu_cache:dl2=S:128:128:16,L:B:m:L:X,A:192:4,32:0,32",
            "SM90_H100 -gpgpu_n_clusters=132 -gpgpu_cache:dl2=S:256:128:16,L:B:m:L:X,A:192:4,32:0,32");
  }

  @Test
  void sweep_pastTheLimit_isRefusedSayingHowMany() {
    List<String> values =
        java.util.stream.IntStream.rangeClosed(1, 9).mapToObj(Integer::toString).toList();
    Map<String, List<String>> sweep = new LinkedHashMap<>();
    sweep.put("-gpgpu_n_clusters", values);
    sweep.put("-gpgpu_shader_cta", values);
    RunEntry entry = new RunEntry("SM90_H100", 1).withSweep(sweep);

    assertThatThrownBy(() -> engine.runs().create("demo", List.of(entry)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[0].sweep");
              assertThat(e.getMessage()).contains("9 x 9 = 81 variants").contains("at most 64");
            });
  }

  @Test
  void unknownParam_isRefusedWithTheNearestKnownNames() {
    RunEntry entry = RunEntry.variant("SM90_H100", 1, params("-gpgpu_n_cluster", "66"));

    assertThatThrownBy(() -> engine.runs().create("demo", List.of(entry)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[0].params");
              assertThat(e.getMessage())
                  .contains("does not set -gpgpu_n_cluster")
                  .contains("did you mean \"-gpgpu_n_clusters\"");
            });
    assertThat(engine.runs().list()).isEmpty();
  }

  @Test
  void malformedCacheSpec_isRefusedNamingTheFieldAndTheFormat() {
    RunEntry entry =
        RunEntry.variant("SM90_H100", 1, params("-gpgpu_cache:dl2", "S:64:128,L:B:m:L:X,A:192:4"));

    assertThatThrownBy(() -> engine.runs().create("demo", List.of(entry)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.field()).isEqualTo("entries[0].params");
              assertThat(e.getMessage())
                  .contains("-gpgpu_cache:dl2")
                  .contains("expected <type>:<sets>:<line>:<ways>")
                  .contains("<type N|S>:<sets>:<line bytes>:<ways>");
            });
  }

  @Test
  void wholeNumberOption_givenText_isRefused() {
    RunEntry entry = RunEntry.variant("SM90_H100", 1, params("-gpgpu_n_clusters", "many"));

    assertThatThrownBy(() -> engine.runs().create("demo", List.of(entry)))
        .hasMessageContaining("\"many\" is not a whole number");
  }

  @Test
  void variantChangingTheComputeCapability_isCheckedAgainstTheTrace() {
    RunEntry entry =
        RunEntry.variant(
            "SM90_H100",
            1,
            params("-gpgpu_compute_capability_major", "8", "-gpgpu_compute_capability_minor", "0"));

    assertThatThrownBy(() -> engine.runs().create("demo", List.of(entry)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("is sm_80 but trace \"demo\" was captured on sm_90"));
  }

  @Test
  void reuse_takesResultsOnlyFromTheSameVariant() {
    RunEntry variant = RunEntry.variant("SM90_H100", 1, params("-gpgpu_n_clusters", "66"));
    Run first = engine.runs().create("demo", List.of(variant));
    String simId = first.sims().get(0).id();
    launchOf(simId);
    String log =
        "Accel-Sim [build x]\nkernel_name = k \nkernel_launch_uid = 1 \ngpu_sim_cycle = 10\n"
            + "gpu_tot_sim_cycle = 10\ngpu_tot_sim_insn = 20\ngpgpu_silicon_slowdown = 1x\n"
            + "GPGPU-Sim: *** exit detected ***\n";
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.reports().putChunk(simId, 0, log.getBytes(UTF_8));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 1));

    Run again =
        engine
            .runs()
            .create(
                "demo",
                List.of(
                    variant, RunEntry.variant("SM90_H100", 1, params("-gpgpu_n_clusters", "33"))),
                RunOptions.defaults().withReuse(true));

    assertThat(again.sims().get(0).provenance().reusedFrom()).isEqualTo(simId);
    assertThat(again.sims().get(1).provenance().reusedFrom()).isNull();
  }

  @Test
  void results_nameEachVariantsBaseAndParams() {
    Run run =
        engine
            .runs()
            .create(
                "demo",
                List.of(
                    new RunEntry("SM90_H100", 1),
                    RunEntry.variant("SM90_H100", 1, params("-gpgpu_n_clusters", "66"))));

    List<ConfigResult> results = engine.results().compare(run.id());

    assertThat(results.get(0).base()).isEqualTo("SM90_H100");
    assertThat(results.get(0).params()).isEmpty();
    assertThat(results.get(1).gpuConfig()).isEqualTo("SM90_H100 -gpgpu_n_clusters=66");
    assertThat(results.get(1).base()).isEqualTo("SM90_H100");
    assertThat(results.get(1).params()).containsExactly(Map.entry("-gpgpu_n_clusters", "66"));
    assertThat(results.get(1).notes()).anyMatch(note -> note.startsWith("variant of SM90_H100"));
    assertThat(results.get(1).clockMhz()).isEqualTo(1980.0);
  }
}
