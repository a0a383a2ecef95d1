package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cascade.core.DoctorCheck.Status;
import dev.cascade.core.testkit.FakeAccelSim;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade doctor}'s checks on made-up Accel-Sim folders: each failure is reported with its
 * words and its fix, and a working install (a script, or a C program whose library is found only
 * through the build's {@code lib/.../release} folder) passes.
 */
final class AccelSimDoctorIT {

  @TempDir Path folder;

  private DoctorReport check(Path accelSim) {
    return doctor(accelSim).build().check();
  }

  private AccelSimDoctor.Builder doctor(Path accelSim) {
    AccelSimDoctor.Builder builder =
        AccelSimDoctor.builder()
            .fromEnvironment(Map.of("PATH", System.getenv("PATH")))
            .dataDir(folder.resolve("data"));
    return accelSim == null ? builder : builder.accelSimDir(accelSim);
  }

  private static List<String> ids(DoctorReport report) {
    return report.checks().stream().map(DoctorCheck::id).toList();
  }

  @Test
  void withoutAccelSim_checksWhatItCan_andSaysHowToPointAtOne() {
    DoctorReport report = check(null);

    assertThat(report.passed()).as(report.toString()).isTrue();
    assertThat(ids(report)).containsExactly("java", "data_dir", "emulator", "accelsim_dir");
    assertThat(report.check("java").orElseThrow().detail()).contains("Java " + Runtime.version());
    assertThat(report.check("emulator").orElseThrow().detail())
        .contains("the demo trace (5 kernels) on SM90_H100")
        .contains("complete");
    DoctorCheck accelSim = report.check("accelsim_dir").orElseThrow();
    assertThat(accelSim.status()).isEqualTo(Status.SKIP);
    assertThat(accelSim.fix()).contains("CASCADE_ACCELSIM_DIR").contains("--accelsim-dir");
    assertThat(folder.resolve("data/work")).isEmptyDirectory();
  }

  @Test
  void aWorkingInstall_passesEveryCheck_andRunsTheTraceOnQv100() throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.printsTheLog());

    DoctorReport report = check(accelSim);

    assertThat(report.passed()).as(report.toString()).isTrue();
    assertThat(ids(report))
        .containsExactly(
            "java",
            "data_dir",
            "emulator",
            "accelsim_dir",
            "binary",
            "libraries",
            "configs",
            "smoke");
    assertThat(report.check("libraries").orElseThrow().detail()).contains("not dynamically linked");
    assertThat(report.check("configs").orElseThrow().detail())
        .contains("1 config in " + accelSim.resolve(FakeAccelSim.CONFIGS))
        .contains("1 usable, 1 with a trace.config");
    assertThat(report.check("smoke").orElseThrow().detail())
        .contains("1 kernel on SM7_QV100")
        .contains(FakeAccelSim.CYCLES + " cycles, " + FakeAccelSim.INSTRUCTIONS + " instructions")
        .contains("Accel-Sim build accelsim-commit-fake_for_tests");
  }

  @Test
  void aDataDirThatTakesNoWrites_failsWithTheFolderAndTheFix() throws Exception {
    Path data = Files.writeString(folder.resolve("data"), "a file, not a folder");

    DoctorReport report = doctor(null).dataDir(data).build().check();

    DoctorCheck check = report.check("data_dir").orElseThrow();
    assertThat(check.status()).isEqualTo(Status.FAIL);
    assertThat(check.detail()).startsWith("cannot write to " + data);
    assertThat(check.fix()).contains("--data-dir").contains("CASCADE_DATA_DIR");
    assertThat(report.check("emulator").orElseThrow().status()).isEqualTo(Status.PASS);
    assertThat(report.passed()).isFalse();
  }

  @Test
  void anAccelSimDirThatIsNotAFolder_failsAndSkipsWhatNeedsIt() {
    DoctorReport report = check(folder.resolve("nowhere"));

    DoctorCheck dir = report.check("accelsim_dir").orElseThrow();
    assertThat(dir.status()).isEqualTo(Status.FAIL);
    assertThat(dir.detail()).contains(folder.resolve("nowhere") + ", which is not a folder");
    assertThat(dir.fix()).contains("the one holding gpu-simulator/");
    assertThat(report.check("binary").orElseThrow().status()).isEqualTo(Status.SKIP);
    assertThat(report.check("smoke").orElseThrow().detail()).contains("not run");
    assertThat(report.passed()).isFalse();
  }

  @Test
  void aFolderWithoutGpuSimulator_isNotAnAccelSimCheckout() throws Exception {
    Path other = Files.createDirectories(folder.resolve("other"));

    DoctorCheck dir = check(other).check("accelsim_dir").orElseThrow();

    assertThat(dir.status()).isEqualTo(Status.FAIL);
    assertThat(dir.detail()).contains("has no gpu-simulator/ folder");
  }

  @Test
  void noBinary_failsWithHowToBuildIt() throws Exception {
    Path accelSim = FakeAccelSim.withConfig(folder);

    DoctorReport report = check(accelSim);

    DoctorCheck binary = report.check("binary").orElseThrow();
    assertThat(binary.status()).isEqualTo(Status.FAIL);
    assertThat(binary.detail())
        .isEqualTo("no accel-sim.out at " + accelSim.resolve(FakeAccelSim.BINARY));
    assertThat(binary.fix())
        .contains("source gpu-simulator/setup_environment.sh && make -j -C gpu-simulator");
    assertThat(report.check("libraries").orElseThrow().status()).isEqualTo(Status.SKIP);
    assertThat(report.check("smoke").orElseThrow().status()).isEqualTo(Status.SKIP);
  }

  @Test
  void aBinaryThatIsNotExecutable_failsWithChmod() throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.printsTheLog());
    Path binary = accelSim.resolve(FakeAccelSim.BINARY);
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rw-r--r--"));

    DoctorCheck check = check(accelSim).check("binary").orElseThrow();

    assertThat(check.status()).isEqualTo(Status.FAIL);
    assertThat(check.detail()).isEqualTo(binary + " is not an executable file");
    assertThat(check.fix()).contains("chmod +x " + binary);
  }

  @Test
  void noConfigFolder_failsAndSaysWhereCascadeLooked() throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.printsTheLog());
    deleteTree(accelSim.resolve("gpu-simulator/gpgpu-sim"));

    DoctorReport report = check(accelSim);

    DoctorCheck configs = report.check("configs").orElseThrow();
    assertThat(configs.status()).isEqualTo(Status.FAIL);
    assertThat(configs.detail())
        .isEqualTo(
            "no GPU config folder at "
                + accelSim.resolve(FakeAccelSim.CONFIGS)
                + " (from the Accel-Sim folder)");
    assertThat(configs.fix()).contains("setup_environment.sh").contains("CASCADE_ACCELSIM_CONFIGS");
    assertThat(report.check("smoke").orElseThrow().status()).isEqualTo(Status.SKIP);
  }

  @Test
  void anUpstreamLayout_passes_theTraceConfigFoundApart_andTheIcntOpenedFromTheRunFolder()
      throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.checksItsConfigsAndPrintsTheLog());
    Path traceConfig = FakeAccelSim.withUpstreamLayout(accelSim);

    DoctorReport report = check(accelSim);

    DoctorCheck configs = report.check("configs").orElseThrow();
    assertThat(configs.status()).as(configs.toString()).isEqualTo(Status.PASS);
    assertThat(configs.detail()).endsWith("1 usable, 1 with a trace.config");
    DoctorCheck smoke = report.check("smoke").orElseThrow();
    assertThat(smoke.status()).as(smoke.toString()).isEqualTo(Status.PASS);
    assertThat(smoke.detail()).doesNotContain("no trace.config found");
    assertThat(traceConfig).exists();
  }

  @Test
  void noTraceConfigAnywhere_failsTheConfigs_sayingWhereCascadeLooked() throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.printsTheLog());
    Files.delete(accelSim.resolve(FakeAccelSim.CONFIGS).resolve("SM7_QV100/trace.config"));

    DoctorCheck configs = check(accelSim).check("configs").orElseThrow();

    assertThat(configs.status()).isEqualTo(Status.FAIL);
    assertThat(configs.detail())
        .contains("0 with a trace.config")
        .contains("sims pass -config $CASCADE_GPU_CONFIG_DIR/trace.config, which no config has")
        .contains(
            "neither beside its gpgpusim.config nor in "
                + accelSim.resolve(FakeAccelSim.TRACE_CONFIGS)
                + "/NAME/");
    assertThat(configs.fix()).contains("Accel-Sim keeps each config's trace.config in");
  }

  @Test
  void aSimulatorThatFails_reportsItsExitCodeAndLastLines_andKeepsTheLog() throws Exception {
    Path accelSim =
        FakeAccelSim.withScript(
            folder,
            "echo 'GPGPU-Sim: reading the config'\necho 'cannot open the icnt file'\nexit 6");

    DoctorCheck smoke = check(accelSim).check("smoke").orElseThrow();

    assertThat(smoke.status()).isEqualTo(Status.FAIL);
    assertThat(smoke.detail())
        .startsWith("accel-sim.out exited with code 6 on SM7_QV100, log ")
        .contains("its last lines: GPGPU-Sim: reading the config | cannot open the icnt file");
    Path log = Path.of(smoke.detail().replaceAll("^.*, log (\\S+); its last lines.*$", "$1"));
    assertThat(log).exists().content().contains("cannot open the icnt file");
  }

  @Test
  void anUnsupportedBinaryVersion_saysTheBuildCannotDecodeTheTrace() throws Exception {
    Path accelSim =
        FakeAccelSim.withScript(folder, "echo 'unsupported binary version: 70'\nexit 0");

    DoctorCheck smoke = check(accelSim).check("smoke").orElseThrow();

    assertThat(smoke.status()).isEqualTo(Status.FAIL);
    assertThat(smoke.detail()).endsWith(": unsupported binary version: 70");
    assertThat(smoke.fix()).contains("cannot decode Volta SASS (binary version 70)");
  }

  @Test
  void aSimulatorThatHangs_isStoppedAtTheTimeLimit_withItsWholeGroup() throws Exception {
    Path pidFile = folder.resolve("pid");
    Path accelSim =
        FakeAccelSim.withScript(
            folder, "echo $$ > " + pidFile + "\nsleep 600 &\necho $! >> " + pidFile + "\nwait");

    DoctorReport report = doctor(accelSim).timeLimit(Duration.ofSeconds(1)).build().check();

    DoctorCheck smoke = report.check("smoke").orElseThrow();
    assertThat(smoke.status()).isEqualTo(Status.FAIL);
    assertThat(smoke.detail())
        .startsWith("accel-sim.out did not finish within 1 s and was stopped");
    assertThat(smoke.fix()).contains("--time-limit");
    for (String pid : Files.readAllLines(pidFile)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(
                          ProcessHandle.of(Long.parseLong(pid.strip()))
                              .map(ProcessHandle::isAlive)
                              .orElse(false))
                      .as("process " + pid)
                      .isFalse());
    }
  }

  @Test
  void aProgramWhoseLibraryIsInTheBuild_findsItThroughTheSimsLibraryPath() throws Exception {
    assumeTrue(FakeAccelSim.hasCompiler(), "needs a C compiler at /usr/bin/cc");
    Path accelSim = FakeAccelSim.withProgram(folder, "cudart", true);

    DoctorReport report = check(accelSim);

    assertThat(report.passed()).as(report.toString()).isTrue();
    assertThat(report.check("libraries").orElseThrow().detail())
        .contains("every library found")
        .contains("libcudart.so from " + accelSim.resolve(FakeAccelSim.RELEASE))
        .contains("sims get LD_LIBRARY_PATH=" + accelSim.resolve(FakeAccelSim.RELEASE));
    assertThat(report.check("smoke").orElseThrow().detail()).contains("1 kernel on SM7_QV100");
  }

  @Test
  void aProgramWhoseLibraryIsMissing_failsWithTheLoadersWordsAndTheFix() throws Exception {
    assumeTrue(FakeAccelSim.hasCompiler(), "needs a C compiler at /usr/bin/cc");
    Path accelSim = FakeAccelSim.withProgram(folder, "gpgpusim_cascade_test", false);

    DoctorReport report = check(accelSim);

    DoctorCheck libraries = report.check("libraries").orElseThrow();
    assertThat(libraries.status()).isEqualTo(Status.FAIL);
    assertThat(libraries.detail())
        .isEqualTo(
            "libgpgpusim_cascade_test.so not found; sims get no LD_LIBRARY_PATH (no"
                + " gpu-simulator/gpgpu-sim/lib/**/release folder)");
    assertThat(libraries.fix())
        .startsWith("libgpgpusim_cascade_test.so is not in the system's library folders")
        .contains("add the folder holding it to LD_LIBRARY_PATH before starting Cascade");
    DoctorCheck smoke = report.check("smoke").orElseThrow();
    assertThat(smoke.status()).isEqualTo(Status.FAIL);
    assertThat(smoke.detail())
        .startsWith("accel-sim.out could not start (exit 127): ")
        .contains("error while loading shared libraries: libgpgpusim_cascade_test.so");
    assertThat(smoke.fix()).isEqualTo(libraries.fix());
  }

  @Test
  void aMissingLibcudart_isSaidToBeGpgpuSimsOwn() throws Exception {
    assumeTrue(FakeAccelSim.hasCompiler(), "needs a C compiler at /usr/bin/cc");
    Path accelSim = FakeAccelSim.withProgram(folder, "cudart", false);
    // Where the system has a libcudart.so of its own (CUDA installed), the loader takes that one.
    Path emptyRelease = Files.createDirectories(accelSim.resolve(FakeAccelSim.RELEASE));

    DoctorReport report = check(accelSim);

    DoctorCheck libraries = report.check("libraries").orElseThrow();
    assertThat(libraries.status()).isEqualTo(Status.FAIL);
    assertThat(libraries.fix()).startsWith("libcudart.so is GPGPU-Sim's own CUDA runtime");
    assertThat(libraries.detail())
        .containsAnyOf(
            "libcudart.so not found; sims get LD_LIBRARY_PATH=" + emptyRelease,
            "libcudart.so is taken from ");
  }

  @Test
  void anotherLibcudartFirstOnThePath_failsWithTheSymbolLookupError() throws Exception {
    assumeTrue(FakeAccelSim.hasCompiler(), "needs a C compiler at /usr/bin/cc");
    Path accelSim = FakeAccelSim.withProgram(folder, "cudart", false);
    Path decoys = FakeAccelSim.decoyLibrary(folder, "cudart");

    DoctorReport report =
        AccelSimDoctor.builder()
            .fromEnvironment(
                Map.of("PATH", System.getenv("PATH"), "LD_LIBRARY_PATH", decoys.toString()))
            .dataDir(folder.resolve("data"))
            .accelSimDir(accelSim)
            .build()
            .check();

    DoctorCheck libraries = report.check("libraries").orElseThrow();
    assertThat(libraries.status()).isEqualTo(Status.FAIL);
    assertThat(libraries.detail())
        .startsWith("libcudart.so is taken from " + decoys.resolve("libcudart.so"))
        .contains("not from Accel-Sim's build");
    DoctorCheck smoke = report.check("smoke").orElseThrow();
    assertThat(smoke.status()).isEqualTo(Status.FAIL);
    assertThat(smoke.detail())
        .contains("symbol lookup error")
        .contains("undefined symbol: cascade_gpgpusim_init");
    assertThat(smoke.fix())
        .contains("a library the loader found first is not the one accel-sim.out was built against")
        .contains("sims get LD_LIBRARY_PATH=" + decoys);
  }

  @Test
  void aSmokeConfigThatIsNotThere_failsNamingIt() throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.printsTheLog());

    DoctorCheck smoke =
        doctor(accelSim).smokeConfig("SM99_NONE").build().check().check("smoke").orElseThrow();

    assertThat(smoke.status()).isEqualTo(Status.FAIL);
    assertThat(smoke.detail()).isEqualTo("no usable GPU config named \"SM99_NONE\"");
  }

  private static void deleteTree(Path root) throws Exception {
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
