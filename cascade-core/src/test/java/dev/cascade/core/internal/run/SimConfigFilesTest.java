package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.GpuConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config folder a sim gets, and the files its simulator opens from its working folder. */
final class SimConfigFilesTest {

  @TempDir Path dir;

  @Test
  void folderFor_aTraceConfigKeptApart_isAFolderOfLinksToBothAndTheRest() throws IOException {
    Path directory = Files.createDirectories(dir.resolve("gpgpu-sim/SM90_H100"));
    Files.writeString(directory.resolve("gpgpusim.config"), "-gpgpu_n_clusters 132\n");
    Files.writeString(directory.resolve("config_hopper_islip.icnt"), "topology = fly;\n");
    Path traceConfig =
        Files.writeString(
            Files.createDirectories(dir.resolve("accel-sim/SM90_H100")).resolve("trace.config"),
            "-trace_opcode_latency_initiation_int 2,2\n");
    Path dataDir = dir.resolve("data");

    Path folder = SimConfigFiles.folderFor(config(directory, traceConfig), dataDir);

    assertThat(folder).isEqualTo(dataDir.resolve("work/gpu-configs/SM90_H100"));
    assertThat(Files.readSymbolicLink(folder.resolve("trace.config"))).isEqualTo(traceConfig);
    assertThat(folder.resolve("trace.config"))
        .hasContent("-trace_opcode_latency_initiation_int 2,2");
    assertThat(folder.resolve("gpgpusim.config")).hasContent("-gpgpu_n_clusters 132");
    assertThat(folder.resolve("config_hopper_islip.icnt")).exists();

    // Made again for the next sim: the same folder, now with the file as it is.
    Files.writeString(traceConfig, "-trace_opcode_latency_initiation_int 4,2\n");
    assertThat(SimConfigFiles.folderFor(config(directory, traceConfig), dataDir)).isEqualTo(folder);
    assertThat(folder.resolve("trace.config"))
        .hasContent("-trace_opcode_latency_initiation_int 4,2");
  }

  @Test
  void folderFor_aTraceConfigBeside_isTheConfigsOwnFolder() throws IOException {
    Path directory = Files.createDirectories(dir.resolve("SM7_QV100"));
    Path traceConfig = Files.writeString(directory.resolve("trace.config"), "x\n");

    assertThat(SimConfigFiles.folderFor(config(directory, traceConfig), dir.resolve("data")))
        .isEqualTo(directory);
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void linkCompanions_putsTheFilesGpgpusimConfigNamesRelativelyInTheWorkingFolder()
      throws IOException {
    Path directory = Files.createDirectories(dir.resolve("SM6_TITANX"));
    Files.writeString(directory.resolve("gpgpusim.config"), "-inter_config_file x.icnt\n");
    Path icnt = Files.writeString(directory.resolve("config_pascal_islip.icnt"), "fly\n");
    Files.writeString(directory.resolve("accelwattch_sass_sim.xml"), "<x/>\n");
    Path workDir = dir.resolve("work/sims/s1");

    SimConfigFiles.linkCompanions(directory, workDir);
    SimConfigFiles.linkCompanions(directory, workDir); // a second attempt of the same sim

    try (var files = Files.list(workDir)) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted())
          .containsExactly("accelwattch_sass_sim.xml", "config_pascal_islip.icnt");
    }
    assertThat(Files.readSymbolicLink(workDir.resolve("config_pascal_islip.icnt"))).isEqualTo(icnt);
  }

  @Test
  void linkCompanions_ofAFolderWithNone_makesNothing() throws IOException {
    Path directory = Files.createDirectories(dir.resolve("SM80_A100"));
    Files.writeString(directory.resolve("gpgpusim.config"), "-network_mode 2\n");

    SimConfigFiles.linkCompanions(directory, dir.resolve("work"));

    assertThat(dir.resolve("work")).doesNotExist();
  }

  private static GpuConfig config(Path directory, Path traceConfig) {
    return new GpuConfig(
        directory.getFileName().toString(),
        "sm_90",
        1980,
        132,
        true,
        true,
        null,
        List.of(),
        directory,
        traceConfig);
  }
}
