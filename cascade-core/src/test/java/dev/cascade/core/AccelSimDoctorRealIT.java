package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cascade doctor} on a real Accel-Sim build: every check passes. */
final class AccelSimDoctorRealIT {

  @TempDir Path dataDir;

  @Test
  void aRealBuild_passesEveryCheck_includingTheOneKernelRun() {
    String accelSim = System.getenv("CASCADE_ACCELSIM_DIR");
    assumeTrue(
        accelSim != null && !accelSim.isBlank(),
        "CASCADE_ACCELSIM_DIR is not set: set it to a built accel-sim-framework folder to run"
            + " cascade doctor against the real simulator");

    DoctorReport report =
        AccelSimDoctor.builder().fromEnvironment(System.getenv()).dataDir(dataDir).build().check();

    assertThat(report.failures()).as(report.toString()).isEmpty();
    assertThat(report.check("smoke").orElseThrow().status()).isEqualTo(DoctorCheck.Status.PASS);
  }
}
