package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class ConfigCountTest {

  @Test
  void parse_configAndCount() {
    assertThat(ConfigCount.parse("SM90_H100:4")).isEqualTo(new ConfigCount("SM90_H100", 4));
  }

  @Test
  void parse_bareConfig_isOneReplica() {
    assertThat(ConfigCount.parse("SM90_H100")).isEqualTo(new ConfigCount("SM90_H100", 1));
  }

  @Test
  void parse_leavesTheRangeToTheServer() {
    assertThat(ConfigCount.parse("SM90_H100:65").count()).isEqualTo(65);
    assertThat(ConfigCount.parse("SM90_H100:0").count()).isZero();
  }

  @Test
  void parse_rejectsACountThatIsNotAWholeNumber() {
    for (String text :
        new String[] {"SM90_H100:two", "SM90_H100:", "SM90_H100:-1", "SM90_H100:1.5"}) {
      assertThatThrownBy(() -> ConfigCount.parse(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("\"" + text + "\"")
          .hasMessageContaining("CONFIG:COUNT");
    }
  }

  @Test
  void parse_rejectsAMissingConfig() {
    assertThatThrownBy(() -> ConfigCount.parse(":2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names no GPU config");
  }
}
