package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.internal.AppEnvironment;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class MemorySettingsTest {

  private static final long MIB = 1024L * 1024;

  @ParameterizedTest
  @CsvSource({
    "1073741824, 1073741824",
    "512M, 536870912",
    "512m, 536870912",
    "512MiB, 536870912",
    "512MB, 536870912",
    "2G, 2147483648",
    "1.5G, 1610612736",
    "64K, 65536",
    "100B, 100",
    "1T, 1099511627776"
  })
  void parseSize_readsBytesAndBinaryUnits(String text, long bytes) {
    assertThat(MemorySettings.parseSize(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "lots", "-1G", "12X", "G", "1.5.G", "12IB"})
  void parseSize_refusesWhatIsNotASize_namingTheValue(String text) {
    assertThatThrownBy(() -> MemorySettings.parseSize(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "\""
                + text
                + "\" is not a size; give bytes, or a number with K, M, G or T (such as 512M or"
                + " 2G)");
  }

  @Test
  void defaults_keep512MiBBack_setNoLimit_andGiveThreeAttempts() {
    MemorySettings defaults = MemorySettings.defaults();
    assertThat(defaults.reserveBytes()).isEqualTo(512 * MIB);
    assertThat(defaults.simLimit()).isEmpty();
    assertThat(defaults.oomAttempts()).isEqualTo(3);
  }

  @Test
  void new_refusesOutOfRangeValues_namingThem() {
    assertThatThrownBy(() -> new MemorySettings(-1, null, 3))
        .hasMessage("the memory reserve cannot be negative; got -1 bytes");
    assertThatThrownBy(() -> new MemorySettings(0, 0L, 3))
        .hasMessage("the sims' memory limit must be positive; got 0 bytes");
    assertThatThrownBy(() -> new MemorySettings(0, null, 0))
        .hasMessage("out-of-memory attempts must be 1 to 20; got 0");
  }

  @Test
  void environment_setsTheReserveTheLimitAndTheAttempts() {
    MemorySettings memory =
        new AppEnvironment(
                Map.of(
                    "CASCADE_MEMORY_RESERVE", "2G",
                    "CASCADE_SIM_MEMORY_LIMIT", "12G",
                    "CASCADE_OOM_ATTEMPTS", "5"))
            .memory(MemorySettings.defaults());
    assertThat(memory).isEqualTo(new MemorySettings(2048 * MIB, 12288 * MIB, 5));
  }

  @Test
  void environment_aBadValueIsAnErrorNamingTheVariableAndTheValue() {
    assertThatThrownBy(
            () ->
                new AppEnvironment(Map.of("CASCADE_SIM_MEMORY_LIMIT", "lots"))
                    .memory(MemorySettings.defaults()))
        .isInstanceOf(CascadeException.class)
        .hasMessageStartingWith(
            "CASCADE_SIM_MEMORY_LIMIT=\"lots\" is wrong: \"lots\" is not a size");
    assertThatThrownBy(
            () ->
                new AppEnvironment(Map.of("CASCADE_OOM_ATTEMPTS", "0"))
                    .memory(MemorySettings.defaults()))
        .isInstanceOf(CascadeException.class)
        .hasMessage(
            "CASCADE_OOM_ATTEMPTS=\"0\" is wrong: out-of-memory attempts must be 1 to 20; got 0");
  }
}
