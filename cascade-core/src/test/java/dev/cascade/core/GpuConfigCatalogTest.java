package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class GpuConfigCatalogTest {

  private static final Path TESTED_CFGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/tested-cfgs");

  @TempDir Path folder;

  @Test
  void list_readsArchClockAndSmsOfEveryRealTestedConfig() {
    Assumptions.assumeTrue(
        Files.isDirectory(TESTED_CFGS),
        "needs the fixture "
            + TESTED_CFGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    List<GpuConfig> configs = GpuConfigCatalog.fromFolder(TESTED_CFGS).list();

    assertThat(configs)
        .extracting(GpuConfig::name, GpuConfig::arch, GpuConfig::clockMhz, GpuConfig::sms)
        .containsExactly(
            Tuple.tuple("SM2_GTX480", "sm_20", 700.0, 15),
            Tuple.tuple("SM3_KEPLER_TITAN", "sm_30", 837.0, 14),
            Tuple.tuple("SM6_TITANX", "sm_60", 1417.0, 28),
            Tuple.tuple("SM75_RTX2060", "sm_75", 1365.0, 30),
            Tuple.tuple("SM75_RTX2060_S", "sm_75", 1905.0, 34),
            Tuple.tuple("SM7_GV100", "sm_70", 1447.0, 80),
            Tuple.tuple("SM7_QV100", "sm_70", 1132.0, 80),
            Tuple.tuple("SM7_TITANV", "sm_70", 1200.0, 80),
            Tuple.tuple("SM80_A100", "sm_80", 1410.0, 108),
            Tuple.tuple("SM86_RTX3070", "sm_86", 1132.0, 46),
            Tuple.tuple("SM90_H100", "sm_90", 1980.0, 132),
            Tuple.tuple("SM90_H200", "sm_90", 1980.0, 132));
    assertThat(configs).allMatch(GpuConfig::usable);
  }

  @Test
  void list_warnsWhereTheNameDisagreesWithTheComputeCapability() {
    Assumptions.assumeTrue(
        Files.isDirectory(TESTED_CFGS),
        "needs the fixture "
            + TESTED_CFGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
    GpuConfigCatalog catalog = GpuConfigCatalog.fromFolder(TESTED_CFGS);

    assertThat(catalog.find("SM6_TITANX").orElseThrow().warnings())
        .anySatisfy(w -> assertThat(w).contains("sm_60").contains("6.1"));
    assertThat(catalog.find("SM3_KEPLER_TITAN").orElseThrow().warnings())
        .anySatisfy(w -> assertThat(w).contains("3.5"));
    assertThat(catalog.find("SM90_H100").orElseThrow().warnings()).isEmpty();
    assertThat(catalog.find("SM2_GTX480").orElseThrow())
        .satisfies(c -> assertThat(c.hasTraceConfig()).isFalse())
        .satisfies(c -> assertThat(c.warnings()).anyMatch(w -> w.contains("trace.config")));
  }

  @Test
  void list_warnsAboutTheEarlyDummyH100ThatWasAVoltaCopy() {
    Path variants = TESTED_CFGS.resolveSibling("tested-cfgs-variants");
    Assumptions.assumeTrue(
        Files.isDirectory(variants),
        "needs the fixture "
            + variants
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    GpuConfig dummy = GpuConfigCatalog.fromFolder(variants).list().getFirst();

    assertThat(dummy.arch()).isEqualTo("sm_90");
    assertThat(dummy.clockMhz()).isEqualTo(1132.0);
    assertThat(dummy.warnings()).anyMatch(w -> w.contains("compute capability 7.0"));
  }

  @Test
  void list_fallsBackToTheComputeCapabilityWhenTheNameHasNoArch() throws IOException {
    writeConfig(
        "NVIDIA_A100_80GB_PCIe",
        """
        -gpgpu_compute_capability_major 8
        -gpgpu_compute_capability_minor 0
        -gpgpu_n_clusters 108
        -gpgpu_clock_domains 1410:1410:1410:1512
        """);

    GpuConfig config =
        GpuConfigCatalog.fromFolder(folder).find("NVIDIA_A100_80GB_PCIe").orElseThrow();

    assertThat(config.usable()).isTrue();
    assertThat(config.arch()).isEqualTo("sm_80");
    assertThat(config.warnings()).anyMatch(w -> w.contains("no SM<nn>_ prefix"));
  }

  @Test
  void list_keepsUnreadableDirectoriesWithTheirReason() throws IOException {
    Files.createDirectories(folder.resolve("SM90_EMPTY"));
    writeConfig("SM90_NOCLOCK", "-gpgpu_n_clusters 132\n");
    writeConfig("SM90_BADCLOCK", "-gpgpu_n_clusters 132\n-gpgpu_clock_domains turbo:1:1:1\n");
    writeConfig("MYSTERY", "-gpgpu_n_clusters 4\n-gpgpu_clock_domains 1000:1:1:1\n");
    Files.writeString(folder.resolve("README.txt"), "not a config");
    Files.createDirectories(folder.resolve(".git"));

    GpuConfigCatalog catalog = GpuConfigCatalog.fromFolder(folder);

    assertThat(catalog.list())
        .extracting(GpuConfig::name)
        .containsExactly("MYSTERY", "SM90_BADCLOCK", "SM90_EMPTY", "SM90_NOCLOCK");
    assertThat(catalog.list()).noneMatch(GpuConfig::usable);
    assertThat(catalog.find("SM90_EMPTY").orElseThrow().reason()).contains("no gpgpusim.config");
    assertThat(catalog.find("SM90_NOCLOCK").orElseThrow().reason())
        .contains("-gpgpu_clock_domains");
    assertThat(catalog.find("SM90_BADCLOCK").orElseThrow().reason())
        .contains("gpgpusim.config:2")
        .contains("turbo");
    assertThat(catalog.find("MYSTERY").orElseThrow().reason()).contains("no architecture");
  }

  @Test
  void list_followsTheFolderWhenConfigsChange() throws IOException {
    Path file = writeConfig("SM90_X", config(1980));
    Path removed = writeConfig("SM90_Z", config(900));
    GpuConfigCatalog catalog = GpuConfigCatalog.fromFolder(folder);
    assertThat(catalog.find("SM90_X").orElseThrow().clockMhz()).isEqualTo(1980.0);
    assertThat(catalog.list()).extracting(GpuConfig::name).containsExactly("SM90_X", "SM90_Z");

    Files.writeString(file, config(1755));
    // Make the change visible even on file systems with coarse timestamps.
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    writeConfig("SM90_Y", config(1000));
    Files.delete(removed);
    Files.delete(removed.resolveSibling("trace.config"));
    Files.delete(removed.getParent());

    assertThat(catalog.find("SM90_X").orElseThrow().clockMhz()).isEqualTo(1755.0);
    assertThat(catalog.list()).extracting(GpuConfig::name).containsExactly("SM90_X", "SM90_Y");
  }

  @Test
  void builtIn_hasTheWellKnownConfigsWithRealFacts() {
    GpuConfigCatalog catalog = GpuConfigCatalog.builtIn();

    assertThat(catalog.isBuiltIn()).isTrue();
    assertThat(catalog.find("SM90_H100").orElseThrow())
        .extracting(GpuConfig::arch, GpuConfig::clockMhz, GpuConfig::sms, GpuConfig::usable)
        .containsExactly("sm_90", 1980.0, 132, true);
    assertThat(catalog.find("SM80_A100").orElseThrow().sms()).isEqualTo(108);
    assertThat(catalog.list()).extracting(GpuConfig::name).contains("SM90_H200", "SM7_QV100");
  }

  @Test
  void builtIn_hasUpstreamsNewerConfigs_adaOrinAndA100With80GB() {
    GpuConfigCatalog catalog = GpuConfigCatalog.builtIn();

    assertThat(catalog.find("SM89_RTX4060_LAPTOP").orElseThrow())
        .extracting(GpuConfig::arch, GpuConfig::clockMhz, GpuConfig::sms)
        .containsExactly("sm_89", 1890.0, 24);
    assertThat(catalog.find("SM87_ORIN").orElseThrow())
        .extracting(GpuConfig::arch, GpuConfig::clockMhz, GpuConfig::sms)
        .containsExactly("sm_87", 1300.0, 16);
    assertThat(catalog.find("NVIDIA_A100_80GB_PCIe").orElseThrow())
        .extracting(GpuConfig::arch, GpuConfig::clockMhz, GpuConfig::sms)
        .containsExactly("sm_80", 1410.0, 108);
  }

  @Test
  void forAccelSim_readsItsTestedCfgsAndRejectsAFolderWithout() throws IOException {
    Path accelSim = folder.resolve("accel-sim");
    Path testedCfgs = Files.createDirectories(accelSim.resolve(GpuConfigCatalog.TESTED_CFGS));

    assertThat(GpuConfigCatalog.forAccelSim(accelSim).folder())
        .hasValue(testedCfgs.toAbsolutePath().normalize());
    assertThatThrownBy(() -> GpuConfigCatalog.forAccelSim(folder.resolve("nowhere")))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID))
        .hasMessageContaining(
            folder.resolve("nowhere").resolve(GpuConfigCatalog.TESTED_CFGS).toString());
  }

  @Test
  void forAccelSim_findsATraceConfigWhereAccelSimKeepsItApart_andSaysWhereItLookedForNone()
      throws IOException {
    Path accelSim = folder.resolve("accel-sim");
    Path testedCfgs = accelSim.resolve(GpuConfigCatalog.TESTED_CFGS);
    for (String name : List.of("SM7_QV100", "SM86_RTX3070")) {
      Files.createDirectories(testedCfgs.resolve(name));
      Files.writeString(testedCfgs.resolve(name).resolve("gpgpusim.config"), config(1132));
    }
    Path apart =
        Files.createDirectories(
            accelSim.resolve(GpuConfigCatalog.TRACE_CONFIGS).resolve("SM7_QV100"));
    Path traceConfig =
        Files.writeString(
            apart.resolve("trace.config"), "-trace_opcode_latency_initiation_int 2,2\n");

    GpuConfigCatalog catalog = GpuConfigCatalog.forAccelSim(accelSim);

    GpuConfig qv100 = catalog.find("SM7_QV100").orElseThrow();
    assertThat(qv100.usable()).isTrue();
    assertThat(qv100.hasTraceConfig()).isTrue();
    assertThat(qv100.traceConfig()).isEqualTo(traceConfig.toAbsolutePath().normalize());
    assertThat(qv100.traceConfigApart()).isTrue();
    assertThat(qv100.warnings()).isEmpty();
    GpuConfig rtx3070 = catalog.find("SM86_RTX3070").orElseThrow();
    assertThat(rtx3070.hasTraceConfig()).isFalse();
    assertThat(rtx3070.traceConfig()).isNull();
    assertThat(rtx3070.warnings())
        .containsExactly(
            "no trace.config (neither beside gpgpusim.config nor in "
                + accelSim.resolve(GpuConfigCatalog.TRACE_CONFIGS).resolve("SM86_RTX3070")
                + "): a real accel-sim.out needs one for trace-driven runs");
    // A tested-cfgs folder read on its own knows nothing of Accel-Sim's other folder.
    assertThat(GpuConfigCatalog.fromFolder(testedCfgs).find("SM7_QV100").orElseThrow())
        .satisfies(c -> assertThat(c.hasTraceConfig()).isFalse());

    // One beside gpgpusim.config wins; the listing follows the files.
    Path beside =
        Files.writeString(
            testedCfgs.resolve("SM7_QV100").resolve("trace.config"),
            "-trace_opcode_latency_initiation_int 4,2\n");
    assertThat(catalog.find("SM7_QV100").orElseThrow())
        .satisfies(c -> assertThat(c.traceConfig()).isEqualTo(beside.toAbsolutePath()))
        .satisfies(c -> assertThat(c.traceConfigApart()).isFalse());
  }

  private static String config(int clockMhz) {
    return "-gpgpu_n_clusters 132\n-gpgpu_clock_domains " + clockMhz + ":1:1:1\n";
  }

  private Path writeConfig(String name, String text) throws IOException {
    Path directory = Files.createDirectories(folder.resolve(name));
    Files.writeString(
        directory.resolve("trace.config"), "-trace_opcode_latency_initiation_int 4,2\n");
    return Files.writeString(directory.resolve("gpgpusim.config"), text);
  }
}
