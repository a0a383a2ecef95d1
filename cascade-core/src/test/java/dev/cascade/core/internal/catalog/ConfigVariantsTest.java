package dev.cascade.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.accelsim.config.GpgpusimConfig;
import dev.cascade.core.CascadeException;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.RunEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Variants of the real tested-cfgs in the shared fixtures (skipped when they are absent). */
final class ConfigVariantsTest {

  private static final Path TESTED_CFGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/tested-cfgs");

  @TempDir Path work;
  private GpuConfigCatalog catalog;
  private ConfigVariants variants;
  private GpuConfig a100;

  @BeforeEach
  void catalogOfTheFixtures() {
    Assumptions.assumeTrue(Files.isDirectory(TESTED_CFGS), "no fixtures at " + TESTED_CFGS);
    catalog = GpuConfigCatalog.fromFolder(TESTED_CFGS);
    variants = new ConfigVariants(catalog, work);
    a100 = catalog.find("SM80_A100").orElseThrow();
  }

  private static RunEntry variant(String... nameValue) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      params.put(nameValue[i], nameValue[i + 1]);
    }
    return RunEntry.variant("SM80_A100", 1, params);
  }

  @Test
  void effective_setsTheOptionInItsOwnFile_andKeepsEveryOtherLine() throws IOException {
    GpuConfig config =
        variants.effective(
            a100,
            variant("-gpgpu_n_clusters", "54", "-trace_opcode_latency_initiation_int", "8,4"),
            "entries[0]");

    assertThat(config.name())
        .isEqualTo("SM80_A100 -gpgpu_n_clusters=54 -trace_opcode_latency_initiation_int=8,4");
    assertThat(config.sms()).isEqualTo(54);
    assertThat(config.arch()).isEqualTo("sm_80");
    assertThat(config.clockMhz()).isEqualTo(a100.clockMhz());
    assertThat(config.directory().getFileName()).hasToString("SM80_A100");
    GpgpusimConfig gpgpusim = GpgpusimConfig.read(config.directory().resolve("gpgpusim.config"));
    GpgpusimConfig trace = GpgpusimConfig.read(config.directory().resolve("trace.config"));
    assertThat(gpgpusim.value("gpgpu_n_clusters")).contains("54");
    assertThat(trace.value("trace_opcode_latency_initiation_int")).contains("8,4");
    assertThat(gpgpusim.names())
        .containsExactlyElementsOf(
            GpgpusimConfig.read(a100.directory().resolve("gpgpusim.config")).names());
    assertThat(Files.readAllLines(config.directory().resolve("gpgpusim.config")))
        .hasSameSizeAs(Files.readAllLines(a100.directory().resolve("gpgpusim.config")));
    assertThat(catalog.find(config.name())).contains(config);
  }

  @Test
  void effective_ofTheSameParams_isTheSameFolder() {
    GpuConfig first = variants.effective(a100, variant("-gpgpu_n_clusters", "54"), "entries[0]");
    GpuConfig again = variants.effective(a100, variant("-gpgpu_n_clusters", "54"), "entries[1]");
    GpuConfig other = variants.effective(a100, variant("-gpgpu_n_clusters", "27"), "entries[2]");

    assertThat(again.directory()).isEqualTo(first.directory());
    assertThat(other.directory()).isNotEqualTo(first.directory());
  }

  @Test
  void effective_refusesAnOptionTheConfigDoesNotSet_withTheClosest() {
    assertThatThrownBy(
            () -> variants.effective(a100, variant("-gpgpu_l2_rop_latencyy", "100"), "entries[3]"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.field()).isEqualTo("entries[3].params");
              assertThat(e.getMessage())
                  .contains("GPU config \"SM80_A100\" does not set -gpgpu_l2_rop_latencyy")
                  .contains("\"-gpgpu_l2_rop_latency\"");
            });
  }

  @Test
  void effective_refusesAMalformedL2Spec_namingTheOptionAndTheLayout() {
    assertThatThrownBy(
            () ->
                variants.effective(
                    a100, variant("-gpgpu_cache:dl2", "S:64:128:16,L:B:m:L,A:192:4"), "entries[0]"))
        .hasMessageContaining("parameter -gpgpu_cache:dl2 of \"SM80_A100 -gpgpu_cache:dl2=")
        .hasMessageContaining("expected five letters such as L:B:m:L:P")
        .hasMessageContaining("the layout is <type N|S>");
  }

  @Test
  void effective_takesTheArchitectureFromAChangedComputeCapability() {
    GpuConfig config =
        variants.effective(
            a100,
            variant("-gpgpu_compute_capability_major", "9", "-gpgpu_compute_capability_minor", "0"),
            "entries[0]");

    assertThat(config.arch()).isEqualTo("sm_90");
  }

  @Test
  void effectiveFiles_areTheFilesTheSimsRead() {
    Map<String, String> files =
        variants.effectiveFiles(a100, variant("-gpgpu_n_clusters", "54"), "entries[0]");

    assertThat(files).containsOnlyKeys("gpgpusim.config", "trace.config");
    assertThat(files.get("gpgpusim.config"))
        .contains("-gpgpu_n_clusters 54 # set by a Cascade variant; was: 108");
  }
}
