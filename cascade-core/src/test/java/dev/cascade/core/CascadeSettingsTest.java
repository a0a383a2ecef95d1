package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The app's {@code CASCADE_*} variables, read in one place: names, defaults, bad values. */
final class CascadeSettingsTest {

  @TempDir Path folder;

  private CascadeSettings.Builder builder() {
    return CascadeSettings.builder().dataDir(folder.resolve("data"));
  }

  private CascadeSettings fromEnvironment(Map<String, String> environment) {
    return CascadeSettings.builder()
        .fromEnvironment(environment)
        .dataDir(folder.resolve("data"))
        .settings();
  }

  @Test
  void fromEnvironment_readsTheNumbersAndTheUrl() {
    CascadeSettings settings =
        fromEnvironment(
            Map.of(
                "CASCADE_MAX_LAUNCHES", " 3 ",
                "CASCADE_HEARTBEAT_TIMEOUT_S", "7",
                "CASCADE_SIM_CMD", " my-sim  --fast ",
                "CASCADE_MAIN_URL", "http://10.0.0.1:8080"));

    assertThat(settings.maxLaunches()).isEqualTo(3);
    assertThat(settings.heartbeatTimeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(settings.simCommand()).containsExactly("my-sim", "--fast");
    assertThat(settings.mainUrl()).isEqualTo("http://10.0.0.1:8080");
    assertThat(settings.catalog().isBuiltIn()).isTrue();
  }

  @Test
  void fromEnvironment_passesToSimsOnlyTheVariablesNamedAndNeverTheUserToken() {
    CascadeSettings settings =
        fromEnvironment(
            Map.of(
                "CASCADE_TOKEN", "user-secret",
                "AWS_SECRET_ACCESS_KEY", "not-for-sims",
                "LD_LIBRARY_PATH", "/opt/cuda/lib64",
                "CUDA_HOME", "/opt/cuda",
                "CASCADE_SIM_ENV_PASS", " LD_LIBRARY_PATH, CUDA_HOME ,UNSET_ONE"));

    assertThat(settings.simEnvironment())
        .containsOnly(
            Map.entry("LD_LIBRARY_PATH", "/opt/cuda/lib64"), Map.entry("CUDA_HOME", "/opt/cuda"));
    assertThat(fromEnvironment(Map.of("CASCADE_TOKEN", "user-secret")).simEnvironment()).isEmpty();
  }

  @Test
  void fromEnvironment_passesLdLibraryPathOn_withTheAccelSimLibrariesFirst() throws IOException {
    Path accelSim = folder.resolve("accel-sim");
    Files.createDirectories(accelSim.resolve("gpu-simulator/gpgpu-sim/configs/tested-cfgs"));
    Path release =
        Files.createDirectories(
            accelSim.resolve("gpu-simulator/gpgpu-sim/lib/gcc-11.4.0/cuda-12080/release"));

    CascadeSettings settings =
        fromEnvironment(
            Map.of(
                "CASCADE_ACCELSIM_DIR", accelSim.toString(), "LD_LIBRARY_PATH", "/opt/cuda/lib64"));

    assertThat(settings.simEnvironment())
        .containsEntry("LD_LIBRARY_PATH", release.toAbsolutePath() + ":/opt/cuda/lib64");
    assertThat(fromEnvironment(Map.of("LD_LIBRARY_PATH", "/opt/x")).simEnvironment())
        .containsOnly(Map.entry("LD_LIBRARY_PATH", "/opt/x"));
    assertThat(SimCommands.accelSimLibraries(folder.resolve("no-such-build"))).isEmpty();
  }

  @Test
  void localLauncher_passesLdLibraryPathOn_itIsNoSecret() {
    assertThat(LocalLauncher.BASE_VARIABLES).contains("LD_LIBRARY_PATH");
  }

  @Test
  void fromEnvironment_refusesToPassTheUserTokenOrABadName() {
    assertThatThrownBy(
            () ->
                fromEnvironment(
                    Map.of(
                        "CASCADE_TOKEN", "user-secret", "CASCADE_SIM_ENV_PASS", "CASCADE_TOKEN")))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("CASCADE_SIM_ENV_PASS")
        .hasMessageContaining("\"CASCADE_TOKEN\"");
    assertThatThrownBy(() -> fromEnvironment(Map.of("CASCADE_SIM_ENV_PASS", "PATH;rm")))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"PATH;rm\"")
        .hasMessageContaining("not a variable name");
  }

  @Test
  void fromEnvironment_keepsTheDefaultsOfAbsentVariables() {
    CascadeSettings settings = fromEnvironment(Map.of());

    assertThat(settings.maxLaunches()).isEqualTo(8);
    assertThat(settings.heartbeatTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.uploadQuietPeriod()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.simCommand()).contains("--emulate");
  }

  @Test
  void fromEnvironment_namesABadNumberAndItsValue() {
    assertThatThrownBy(() -> fromEnvironment(Map.of("CASCADE_MAX_LAUNCHES", "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CASCADE_MAX_LAUNCHES must be a whole number; got \"many\"");
    assertThatThrownBy(() -> fromEnvironment(Map.of("CASCADE_HEARTBEAT_TIMEOUT_S", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CASCADE_HEARTBEAT_TIMEOUT_S must be a whole number; got \" \"");
    assertThatThrownBy(() -> fromEnvironment(Map.of("CASCADE_MAX_LAUNCHES", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLaunches must be 1 to 256; got 0");
  }

  @Test
  void localSlots_comeFromTheBuilderOrCascadeLocalSlotsElseOnePerCore() {
    assertThat(builder().settings().launcher().slots())
        .hasValue(Runtime.getRuntime().availableProcessors());
    assertThat(fromEnvironment(Map.of("CASCADE_LOCAL_SLOTS", "3")).launcher().slots()).hasValue(3);
    assertThat(builder().localSlots(5).settings().launcher().slots()).hasValue(5);
    assertThat(builder().launcher("local").localSlots(1).settings().launcher().slots()).hasValue(1);
    assertThatThrownBy(() -> builder().localSlots(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("local slots must be 1 to 1024 sims at once; got 0");
    assertThatThrownBy(() -> fromEnvironment(Map.of("CASCADE_LOCAL_SLOTS", "two")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CASCADE_LOCAL_SLOTS must be a whole number; got \"two\"");
  }

  @Test
  void dataDirFromEnvironment_ignoresABlankOne() {
    assertThat(CascadeSettings.dataDirFromEnvironment(Map.of("CASCADE_DATA_DIR", "/srv/x")))
        .hasValue(Path.of("/srv/x"));
    assertThat(CascadeSettings.dataDirFromEnvironment(Map.of("CASCADE_DATA_DIR", " "))).isEmpty();
    assertThat(CascadeSettings.dataDirFromEnvironment(Map.of())).isEmpty();
  }

  // -- CASCADE_UPLOAD_QUIET_S (was TraceStore.quietPeriod) -------------------------------------

  @Test
  void quietPeriod_comesFromTheEnvironment() {
    assertThat(quietPeriod(Map.of())).isEqualTo(Duration.ofSeconds(10));
    assertThat(quietPeriod(Map.of("CASCADE_UPLOAD_QUIET_S", "3"))).isEqualTo(Duration.ofSeconds(3));
    assertThat(quietPeriod(Map.of("CASCADE_UPLOAD_QUIET_S", "0.2")))
        .isEqualTo(Duration.ofMillis(200));
    for (String bad : List.of("0", "-1", "ten", "1e400")) {
      assertThatThrownBy(() -> quietPeriod(Map.of("CASCADE_UPLOAD_QUIET_S", bad)))
          .isInstanceOfSatisfying(
              CascadeException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
                assertThat(e.getMessage()).contains("CASCADE_UPLOAD_QUIET_S=\"" + bad + "\"");
              });
    }
  }

  @Test
  void quietPeriod_blankMeansTheDefaultAndAbsentKeepsTheBuildersValue() {
    Duration set = Duration.ofMillis(300);

    assertThat(
            builder()
                .uploadQuietPeriod(set)
                .fromEnvironment(Map.of("CASCADE_UPLOAD_QUIET_S", " "))
                .settings()
                .uploadQuietPeriod())
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(
            builder()
                .uploadQuietPeriod(set)
                .fromEnvironment(Map.of())
                .settings()
                .uploadQuietPeriod())
        .isEqualTo(set);
  }

  private Duration quietPeriod(Map<String, String> environment) {
    return builder().fromEnvironment(environment).settings().uploadQuietPeriod();
  }

  // -- the GPU config catalog (was GpuConfigCatalog.fromEnvironment) ---------------------------

  @Test
  void catalogFromEnvironment_prefersConfigsFolderThenAccelSimDirThenBuiltIn() throws IOException {
    Path configs = Files.createDirectories(folder.resolve("configs"));
    Path accelSim = folder.resolve("accel-sim");
    Path testedCfgs = accelSim.resolve("gpu-simulator/gpgpu-sim/configs/tested-cfgs");
    Files.createDirectories(testedCfgs);

    assertThat(
            CascadeSettings.catalogFromEnvironment(
                    Map.of(
                        "CASCADE_ACCELSIM_CONFIGS",
                        configs.toString(),
                        "CASCADE_ACCELSIM_DIR",
                        accelSim.toString()))
                .folder())
        .hasValue(configs.toAbsolutePath().normalize());
    assertThat(
            CascadeSettings.catalogFromEnvironment(
                    Map.of("CASCADE_ACCELSIM_DIR", accelSim.toString()))
                .folder())
        .hasValue(testedCfgs.toAbsolutePath().normalize());
    assertThat(CascadeSettings.catalogFromEnvironment(Map.of()).isBuiltIn()).isTrue();
    assertThat(GpuConfigCatalog.forAccelSim(accelSim).folder())
        .hasValue(testedCfgs.toAbsolutePath().normalize());
  }

  @Test
  void catalogFromEnvironment_namesTheVariableWhenItsFolderIsMissing() {
    Path missing = folder.resolve("nowhere");

    assertThatThrownBy(
            () ->
                CascadeSettings.catalogFromEnvironment(
                    Map.of("CASCADE_ACCELSIM_CONFIGS", missing.toString())))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("CASCADE_ACCELSIM_CONFIGS")
        .hasMessageContaining(missing.toString());
    assertThatThrownBy(
            () ->
                CascadeSettings.catalogFromEnvironment(
                    Map.of("CASCADE_ACCELSIM_DIR", missing.toString())))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("CASCADE_ACCELSIM_DIR=" + missing)
        .hasMessageContaining(missing.resolve(GpuConfigCatalog.TESTED_CFGS).toString());
  }

  @Test
  void fromEnvironment_setsTheCatalogTheEnvironmentAsksFor() throws IOException {
    Path configs = Files.createDirectories(folder.resolve("configs"));

    assertThat(
            fromEnvironment(Map.of("CASCADE_ACCELSIM_CONFIGS", configs.toString()))
                .catalog()
                .folder())
        .hasValue(configs.toAbsolutePath().normalize());
  }

  @Test
  void catalogFromEnvironment_takesTheAccelSimsComposedNames_orTheFileNamed_orNone()
      throws IOException {
    Path accelSim = folder.resolve("accel-sim-framework");
    Files.createDirectories(accelSim.resolve(GpuConfigCatalog.TESTED_CFGS));
    Path own = accelSim.resolve("util/job_launching/configs/define-standard-cfgs.yml");
    Files.createDirectories(own.getParent());
    Files.writeString(
        own,
        """
        QV100:
            base_file: "$GPGPUSIM_ROOT/configs/tested-cfgs/SM7_QV100/gpgpusim.config"
        64SM:
            extra_params: "-gpgpu_n_clusters 64"
        """);
    Path other = folder.resolve("mine.yml");
    Files.writeString(other, Files.readString(own).replace("QV100", "VOLTA"));

    assertThat(
            CascadeSettings.catalogFromEnvironment(
                    Map.of("CASCADE_ACCELSIM_DIR", accelSim.toString()))
                .standardConfigs()
                .orElseThrow()
                .resolve("QV100-64SM"))
        .hasValueSatisfying(composed -> assertThat(composed.baseFolder()).isEqualTo("SM7_QV100"));
    assertThat(
            CascadeSettings.catalogFromEnvironment(
                    Map.of(
                        "CASCADE_ACCELSIM_DIR",
                        accelSim.toString(),
                        "CASCADE_STANDARD_CFGS",
                        other.toString()))
                .standardConfigs()
                .orElseThrow()
                .resolve("VOLTA-64SM"))
        .isPresent();
    assertThat(
            CascadeSettings.catalogFromEnvironment(
                    Map.of(
                        "CASCADE_ACCELSIM_DIR",
                        accelSim.toString(),
                        "CASCADE_STANDARD_CFGS",
                        "none"))
                .standardConfigs())
        .isEmpty();
    assertThatThrownBy(
            () ->
                CascadeSettings.catalogFromEnvironment(
                    Map.of("CASCADE_STANDARD_CFGS", folder.resolve("nowhere.yml").toString())))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("CASCADE_STANDARD_CFGS=" + folder.resolve("nowhere.yml"))
        .hasMessageContaining("is not a file");
  }

  // -- CASCADE_TOKEN (was ServerSettings.withTokenFrom) ----------------------------------------

  @Test
  void tokenFromEnvironment_readsCascadeTokenAndIgnoresABlankOne() {
    ServerSettings settings = ServerSettings.defaults();

    assertThat(withTokenFrom(settings, Map.of("CASCADE_TOKEN", " abc ")).token()).isEqualTo("abc");
    assertThat(withTokenFrom(settings, Map.of("CASCADE_TOKEN", " ")).hasToken()).isFalse();
    assertThat(withTokenFrom(settings, Map.of()).hasToken()).isFalse();
  }

  private static ServerSettings withTokenFrom(
      ServerSettings settings, Map<String, String> environment) {
    return settings.withToken(CascadeSettings.tokenFromEnvironment(environment).orElse(null));
  }

  // -- the sim command (was SimCommands.choose) ------------------------------------------------

  @Test
  void simCommandFromEnvironment_takesTheGivenCommandFirst() {
    SimCommands.Choice choice =
        CascadeSettings.simCommandFromEnvironment(
            Map.of("CASCADE_SIM_CMD", " my-sim  --fast ", "CASCADE_ACCELSIM_DIR", "/x"), folder);

    assertThat(choice.command()).containsExactly("my-sim", "--fast");
    assertThat(choice.description()).isEqualTo("CASCADE_SIM_CMD: my-sim  --fast");
  }

  @Test
  void simCommandFromEnvironment_runsABuiltAccelSimThroughTheAgent() throws IOException {
    Path accelSim = folder.resolve("accel-sim");
    Path binary = accelSim.resolve(SimCommands.ACCELSIM_BINARY);
    Files.createDirectories(binary.getParent());
    Files.writeString(binary, "#!/bin/sh\n");
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));

    SimCommands.Choice choice =
        CascadeSettings.simCommandFromEnvironment(
            Map.of("CASCADE_ACCELSIM_DIR", accelSim.toString()), folder);

    assertThat(choice.command())
        .startsWith(SimCommands.agent(folder).toArray(String[]::new))
        .endsWith(
            "--",
            binary.toString(),
            "-trace",
            "${CASCADE_TRACE_DIR}/traces/kernelslist.g",
            "-config",
            "${CASCADE_GPU_CONFIG_DIR}/gpgpusim.config",
            "-config",
            "${CASCADE_GPU_CONFIG_DIR}/trace.config");
    assertThat(choice.description())
        .isEqualTo("Accel-Sim at " + binary + ", through the sim agent");
  }

  @Test
  void simCommandFromEnvironment_fallsBackToTheEmulatorAndSaysWhy() {
    SimCommands.Choice unset = CascadeSettings.simCommandFromEnvironment(Map.of(), folder);
    SimCommands.Choice notBuilt =
        CascadeSettings.simCommandFromEnvironment(
            Map.of("CASCADE_ACCELSIM_DIR", folder.toString(), "CASCADE_EMULATE_SPEED", " 0 "),
            folder);

    assertThat(unset.command()).endsWith("--emulate", "--speed", SimCommands.DEMO_SPEED);
    assertThat(unset.description())
        .isEqualTo(
            "the emulator at "
                + SimCommands.DEMO_SPEED
                + " simulated cycles/s (CASCADE_EMULATE_SPEED=0 runs it as fast as it can); set"
                + " CASCADE_ACCELSIM_DIR to a built Accel-Sim to run the real one");
    assertThat(notBuilt.command()).endsWith("--emulate", "--speed", "0");
    assertThat(notBuilt.description())
        .isEqualTo(
            "the emulator as fast as it can; no gpu-simulator/bin/release/accel-sim.out under"
                + " CASCADE_ACCELSIM_DIR");
  }

  @Test
  void settings_defaultTheSimCommandToTheEnvironmentsChoice() {
    Map<String, String> environment = Map.of("CASCADE_EMULATE_SPEED", "5");
    CascadeSettings settings = fromEnvironment(environment);

    assertThat(settings.simCommand())
        .isEqualTo(
            CascadeSettings.simCommandFromEnvironment(environment, settings.dataDir()).command());
  }
}
