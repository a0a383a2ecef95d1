package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class LogBuildsTest {

  @Test
  void with_keepsTheFirstBuildOfEachComponent() {
    LogBuilds builds =
        LogBuilds.NONE
            .with(build(BuildString.Component.GPGPU_SIM, "g1"))
            .with(build(BuildString.Component.ACCEL_SIM, "a1"))
            .with(build(BuildString.Component.GPGPU_SIM, "g2"))
            .with(build(BuildString.Component.ACCEL_SIM, "a2"));

    assertThat(builds).isEqualTo(new LogBuilds("a1", "g1"));
    assertThat(LogBuilds.NONE.accelSim()).isNull();
    assertThat(LogBuilds.NONE.gpgpuSim()).isNull();
  }

  private static BuildString build(BuildString.Component component, String build) {
    return new BuildString(component, build, "[build " + build + "]");
  }
}
