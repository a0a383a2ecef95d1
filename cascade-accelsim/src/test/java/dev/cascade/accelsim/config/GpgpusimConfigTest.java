package dev.cascade.accelsim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class GpgpusimConfigTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));

  @Test
  void parse_readsOptionsByNameWithTheirLines() {
    GpgpusimConfig config =
        GpgpusimConfig.parse(
            """
            # functional simulator specification
            -gpgpu_ptx_sim_mode 0
            -gpgpu_cache:dl1  S:4:128:64,L:T:m:L:L,A:512:8,16:0,32   # inline comment
            -gpgpu_n_clusters 132\t\s
            """,
            "inline.config");

    assertThat(config.names())
        .containsExactly("gpgpu_ptx_sim_mode", "gpgpu_cache:dl1", "gpgpu_n_clusters");
    assertThat(config.value("gpgpu_cache:dl1")).hasValue("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32");
    assertThat(config.value("-gpgpu_n_clusters")).hasValue("132");
    assertThat(config.first("gpgpu_n_clusters").orElseThrow().line()).isEqualTo(4);
    assertThat(config.value("absent")).isEmpty();
  }

  @Test
  void coreClockMhz_takesTheFirstFieldOfTheFirstUncommentedLine() {
    GpgpusimConfig config =
        GpgpusimConfig.parse(
            """
            #-gpgpu_clock_domains <Core Clock>:<Interconnect Clock>:<L2 Clock>:<DRAM Clock>
            # -gpgpu_clock_domains 1628.0:1628.0:1628.0:850.0
            -gpgpu_clock_domains 1980:3960:3960:3106
            -gpgpu_clock_domains 1000:1000:1000:1000
            """,
            "clock.config");

    assertThat(config.coreClockMhz()).hasValue(1980.0);
    assertThat(config.all("gpgpu_clock_domains")).hasSize(2);
  }

  @Test
  void coreClockMhz_namesFileAndLineWhenTheValueIsNotANumber() {
    GpgpusimConfig config =
        GpgpusimConfig.parse("\n-gpgpu_clock_domains fast:1:1:1\n", "bad.config");

    assertThatThrownBy(config::coreClockMhz)
        .isInstanceOf(ConfigFormatException.class)
        .hasMessageContaining("bad.config:2")
        .hasMessageContaining("\"fast:1:1:1\"");
  }

  @Test
  void smCount_multipliesClustersByCoresPerCluster() {
    GpgpusimConfig config =
        GpgpusimConfig.parse("-gpgpu_n_clusters 40\n-gpgpu_n_cores_per_cluster 2\n", "titanv");

    assertThat(config.smCount()).hasValue(80);
  }

  @Test
  void smCount_rejectsANonNumberWithFileAndLine() {
    GpgpusimConfig config = GpgpusimConfig.parse("-gpgpu_n_clusters many\n", "x.config");

    assertThatThrownBy(config::smCount)
        .isInstanceOf(ConfigFormatException.class)
        .hasMessageContaining("x.config:1")
        .hasMessageContaining("many");
  }

  @Test
  void computeCapability_needsBothMajorAndMinor() {
    assertThat(
            GpgpusimConfig.parse(
                    "-gpgpu_compute_capability_major 6\n-gpgpu_compute_capability_minor 1\n", "a")
                .computeCapability())
        .hasValueSatisfying(capability -> assertThat(capability.arch()).isEqualTo("sm_61"));
    assertThat(GpgpusimConfig.parse("-gpgpu_compute_capability_major 6\n", "b").computeCapability())
        .isEmpty();
  }

  @Test
  void read_readsEveryRealTestedConfig() throws IOException {
    Path testedCfgs = FIXTURES.resolve("accelsim/tested-cfgs");
    Assumptions.assumeTrue(
        Files.isDirectory(testedCfgs),
        "needs the fixture "
            + testedCfgs
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    GpgpusimConfig h100 = GpgpusimConfig.read(testedCfgs.resolve("SM90_H100/gpgpusim.config"));
    assertThat(h100.coreClockMhz()).hasValue(1980.0);
    assertThat(h100.smCount()).hasValue(132);
    assertThat(h100.computeCapability()).hasValue(new ComputeCapability(9, 0));

    GpgpusimConfig qv100 = GpgpusimConfig.read(testedCfgs.resolve("SM7_QV100/gpgpusim.config"));
    assertThat(qv100.coreClockMhz()).hasValue(1132.0);
    assertThat(qv100.smCount()).hasValue(80);

    // A100's 40 MB and H100's 50 MB of L2, from dl2's geometry per sub-partition.
    GpgpusimConfig a100 = GpgpusimConfig.read(testedCfgs.resolve("SM80_A100/gpgpusim.config"));
    assertThat(a100.l2CacheBytes()).hasValue(40L * 4 * 128 * 128 * 16);
    assertThat(a100.dramClockMhz()).hasValue(1512.0);
    assertThat(h100.l2CacheBytes()).hasValue(40L * 2 * 256 * 128 * 20);
    assertThat(h100.dramClockMhz()).hasValue(3106.0);
  }

  @Test
  void memoryFacts_nameFileAndLineWhenMalformed() {
    GpgpusimConfig config =
        GpgpusimConfig.parse(
            "-gpgpu_clock_domains 1410:1410:1410\n-gpgpu_n_mem 4\n-gpgpu_cache:dl2 S:x:128:16,L\n",
            "bad.config");

    assertThatThrownBy(config::dramClockMhz)
        .isInstanceOf(ConfigFormatException.class)
        .hasMessageContaining("bad.config:1")
        .hasMessageContaining("DRAM");
    assertThatThrownBy(config::l2CacheBytes)
        .isInstanceOf(ConfigFormatException.class)
        .hasMessageContaining("bad.config:3")
        .hasMessageContaining("whole numbers");
  }

  @Test
  void read_failsWithThePathWhenTheFileIsMissing(@TempDir Path dir) {
    assertThatThrownBy(() -> GpgpusimConfig.read(dir.resolve("gpgpusim.config")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("gpgpusim.config");
  }
}
