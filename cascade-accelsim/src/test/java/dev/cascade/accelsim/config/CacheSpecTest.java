package dev.cascade.accelsim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

final class CacheSpecTest {

  private static final Path TESTED_CFGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/tested-cfgs");

  @Test
  void parse_readsTheGeometryOfAnL2Spec() {
    CacheSpec spec = CacheSpec.parse("S:64:128:16,L:B:m:L:P,A:192:4,32:0,32");

    assertThat(spec.type()).isEqualTo('S');
    assertThat(spec.sets()).isEqualTo(64);
    assertThat(spec.lineBytes()).isEqualTo(128);
    assertThat(spec.ways()).isEqualTo(16);
    assertThat(spec.bytes()).isEqualTo(64 * 128 * 16);
  }

  @Test
  void parse_takesNoneAsNoCache() {
    assertThat(CacheSpec.parse("none").disabled()).isTrue();
  }

  @Test
  void parse_refusesAMissingWayNamingTheLayout() {
    assertThatThrownBy(() -> CacheSpec.parse("S:64:128,L:B:m:L:P,A:192:4"))
        .hasMessageContaining("starts with \"S:64:128\"; expected <type>:<sets>:<line>:<ways>")
        .hasMessageContaining(CacheSpec.FORMAT);
  }

  @Test
  void parse_refusesAnUnknownPolicyLetterNamingTheField() {
    assertThatThrownBy(() -> CacheSpec.parse("N:64:128:16,L:B:q:L:P,A:192:4"))
        .hasMessageContaining("\"q\" as its allocation policy; expected one of m, f, s");
  }

  @Test
  void parse_refusesASectorCacheWithoutFourSectorLines() {
    assertThatThrownBy(() -> CacheSpec.parse("S:64:64:16,L:B:m:L:P,A:192:4"))
        .hasMessageContaining("sector caches have 128-byte lines");
  }

  @Test
  void parse_refusesTextWhereANumberGoes() {
    assertThatThrownBy(() -> CacheSpec.parse("S:many:128:16,L:B:m:L:P,A:192:4"))
        .hasMessageContaining("\"many\" as its sets; expected a whole number");
  }

  @Test
  void parse_readsEveryCacheSpecOfTheTestedConfigs() throws IOException {
    Assumptions.assumeTrue(Files.isDirectory(TESTED_CFGS), "no fixtures at " + TESTED_CFGS);
    int specs = 0;
    try (Stream<Path> files = Files.walk(TESTED_CFGS)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".config")).toList()) {
        GpgpusimConfig config = GpgpusimConfig.read(file);
        for (String name : config.names()) {
          int colon = name.indexOf(':');
          if (colon > 0 && name.substring(0, colon).endsWith("cache")) {
            for (GpgpusimConfig.Option option : config.all(name)) {
              if (option.value().matches("\\d+")) {
                continue; // -gpgpu_cache:dl2_texture_only 0 is a flag
              }
              assertThat(CacheSpec.tryParse(option.value()))
                  .as(file + ":" + option.line() + " " + option.value())
                  .isPresent();
              specs++;
            }
          }
        }
      }
    }
    assertThat(specs).isGreaterThan(20);
  }

  @Test
  void withValues_setsEachLineInPlaceAndKeepsTheOldValueInAComment() {
    String text = "# header\n-gpgpu_n_clusters 108 # SMs\n-gpgpu_n_mem 40\n-gpgpu_n_clusters 108\n";

    String changed = GpgpusimConfig.withValues(text, Map.of("gpgpu_n_clusters", "54"));

    assertThat(changed)
        .isEqualTo(
            "# header\n-gpgpu_n_clusters 54 # set by a Cascade variant; was: 108\n-gpgpu_n_mem 40\n"
                + "-gpgpu_n_clusters 54 # set by a Cascade variant; was: 108\n");
    GpgpusimConfig read = GpgpusimConfig.parse(changed, "x");
    assertThat(read.all("gpgpu_n_clusters"))
        .extracting(GpgpusimConfig.Option::value)
        .containsExactly("54", "54");
  }
}
