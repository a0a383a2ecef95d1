package dev.cascade.agent.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

final class BuiltInGpusTest {

  private static final Path TESTED_CFGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/tested-cfgs");

  @Test
  void everyBuiltInConfig_hasTheFactsOfItsTestedCfgsFolder() throws Exception {
    Assumptions.assumeTrue(Files.isDirectory(TESTED_CFGS), "fixtures not present");

    for (GpuFacts facts : BuiltInGpus.all()) {
      Path folder = TESTED_CFGS.resolve(facts.name());
      if (!Files.isDirectory(folder)) {
        continue;
      }
      EmulatedGpu builtIn = EmulatedGpu.builtIn(facts.name());
      EmulatedGpu real = EmulatedGpu.fromDirectory(folder);

      assertThat(builtIn.clockMhz()).as(facts.name()).isEqualTo(real.clockMhz());
      assertThat(builtIn.sms()).as(facts.name()).isEqualTo(real.sms());
      assertThat(builtIn.limits()).as(facts.name()).isEqualTo(real.limits());
      assertThat(builtIn.memory()).as(facts.name()).isEqualTo(real.memory());
    }
  }

  /**
   * Upstream's newer tested-cfgs, verbatim (provenance in its SOURCES.md), so the rows copied from
   * them are checked on every clone, fixtures or not.
   */
  private static final Path UPSTREAM = upstreamConfigs();

  private static Path upstreamConfigs() {
    try {
      return Path.of(BuiltInGpusTest.class.getResource("upstream-tested-cfgs/SOURCES.md").toURI())
          .getParent();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void everyUpstreamConfigKeptHere_hasABuiltInRowWithItsFacts() throws Exception {
    List<Path> folders;
    try (Stream<Path> children = Files.list(UPSTREAM)) {
      folders = children.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(folders.stream().map(f -> f.getFileName().toString()))
        .containsExactly(
            "NVIDIA_A100_80GB_PCIe", "SM87_ORIN", "SM89_RTX4060_LAPTOP", "SM90_H100", "SM90_H200");

    for (Path folder : folders) {
      String name = folder.getFileName().toString();
      GpuFacts row =
          BuiltInGpus.all().stream()
              .filter(facts -> facts.name().equals(name))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no built-in row for " + name));
      EmulatedGpu builtIn = EmulatedGpu.builtIn(name);
      EmulatedGpu real = EmulatedGpu.fromDirectory(folder);

      assertThat(row.arch()).as(name).isEqualTo(real.arch());
      assertThat(builtIn.clockMhz()).as(name).isEqualTo(real.clockMhz());
      assertThat(builtIn.sms()).as(name).isEqualTo(real.sms());
      assertThat(builtIn.limits()).as(name).isEqualTo(real.limits());
      assertThat(builtIn.memory()).as(name).isEqualTo(real.memory());
    }
  }

  @Test
  void everyBuiltInRow_hasAConfigToBeCheckedAgainst() {
    Assumptions.assumeTrue(Files.isDirectory(TESTED_CFGS), "fixtures not present");

    assertThat(BuiltInGpus.all())
        .allSatisfy(
            facts ->
                assertThat(
                        Files.isDirectory(TESTED_CFGS.resolve(facts.name()))
                            || Files.isDirectory(UPSTREAM.resolve(facts.name())))
                    .as(facts.name() + " is in neither the fixtures nor upstream-tested-cfgs")
                    .isTrue());
  }

  @Test
  void theNewerArchitectures_readAsUpstreamNamesThem() {
    assertThat(EmulatedGpu.builtIn("SM87_ORIN").arch()).isEqualTo("sm_87");
    assertThat(EmulatedGpu.builtIn("SM89_RTX4060_LAPTOP").arch()).isEqualTo("sm_89");
    assertThat(EmulatedGpu.builtIn("NVIDIA_A100_80GB_PCIe").arch()).isEqualTo("sm_80");
  }

  @Test
  void h200_hasMoreBandwidthAndL2ThanH100_andTheSameCores() {
    EmulatedGpu h100 = EmulatedGpu.builtIn("SM90_H100");
    EmulatedGpu h200 = EmulatedGpu.builtIn("SM90_H200");

    // The tested-cfgs give 40 and 48 channels of 8 bytes, DDR at 3106 MHz: 1.99 and 2.39 TB/s.
    assertThat(h100.memory().bandwidthBytesPerSecond()).isEqualTo(40 * 8 * 2 * 3106e6);
    assertThat(h200.memory().bandwidthBytesPerSecond()).isEqualTo(48 * 8 * 2 * 3106e6);
    assertThat(h200.memory().l2Bytes()).isGreaterThan(h100.memory().l2Bytes());
    assertThat(h200.sms()).isEqualTo(h100.sms());
    assertThat(h200.clockMhz()).isEqualTo(h100.clockMhz());
    assertThat(h200.limits()).isEqualTo(h100.limits());
  }

  @Test
  void aRowWithoutEveryFact_isRejectedWithItsLine() {
    assertThatThrownBy(
            () ->
                BuiltInGpus.parse(
                    new BufferedReader(new StringReader("# header\nSM90_X\tsm_90\t1980\t132\n"))))
        .hasMessageContaining(BuiltInGpus.RESOURCE + ":2")
        .hasMessageContaining("expected 20");
  }
}
