package dev.cascade.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings' builder and its copies. */
final class SlurmLauncherSettingsTest {

  @Test
  void builder_setsSeveralFieldsAndKeepsTheDefaultsOfTheOthers() {
    SlurmLauncherSettings settings =
        SlurmLauncherSettings.builder()
            .partition("gpu")
            .cpusPerSim(4)
            .extraArguments(List.of("", "--hold", " "))
            .traces(SlurmLauncherSettings.TraceAccess.FETCH)
            .build();

    assertThat(settings.partition()).isEqualTo("gpu");
    assertThat(settings.cpusPerSim()).isEqualTo(4);
    assertThat(settings.extraArguments()).containsExactly("--hold");
    assertThat(settings.traces()).isEqualTo(SlurmLauncherSettings.TraceAccess.FETCH);
    assertThat(settings.account()).isEmpty();
    assertThat(settings.commandTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(settings.nodeScratch()).isEqualTo(Path.of("/tmp/cascade-slurm"));
  }

  @Test
  void withX_changesOnlyItsFieldOfACopy() {
    SlurmLauncherSettings base =
        SlurmLauncherSettings.builder().partition("gpu").qos("high").build();

    SlurmLauncherSettings changed = base.withAccount("lab").withMemoryPerSim("8G");

    assertThat(changed)
        .isEqualTo(base.toBuilder().account("lab").memoryPerSim("8G").build())
        .isNotEqualTo(base);
    assertThat(changed.partition()).isEqualTo("gpu");
    assertThat(changed.qos()).isEqualTo("high");
    assertThat(base.account()).isEmpty();
  }

  @Test
  void build_rejectsABadFieldByName() {
    assertThatThrownBy(() -> SlurmLauncherSettings.builder().cpusPerSim(0).build())
        .hasMessageContaining("cpusPerSim")
        .hasMessageContaining("0");
    assertThatThrownBy(
            () -> SlurmLauncherSettings.builder().nodeScratch(Path.of("scratch")).build())
        .hasMessageContaining("\"scratch\"");
  }
}
