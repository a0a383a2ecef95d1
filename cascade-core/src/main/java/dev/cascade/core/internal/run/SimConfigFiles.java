package dev.cascade.core.internal.run;

import dev.cascade.core.GpuConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The GPU config files a sim reads, where the simulator looks for them. A config's folder is what
 * the sim gets as {@code CASCADE_GPU_CONFIG_DIR}, holding {@code gpgpusim.config} and {@code
 * trace.config}; for a config whose {@code trace.config} Accel-Sim keeps apart ({@link
 * GpuConfig#traceConfigApart}) that is a folder under the data dir's {@code work/gpu-configs/NAME}
 * of links to both and to the folder's other files ({@link #folderFor}). And the sim's working
 * folder gets links to the files {@code gpgpusim.config} names by a relative path ({@link
 * #linkCompanions}), which GPGPU-Sim opens relative to its working folder, as Accel-Sim's
 * run_simulations.py copies them into each run's folder.
 */
public final class SimConfigFiles {

  /**
   * The endings of the files of a config folder that a {@code gpgpusim.config} names relative to
   * the simulator's working folder: interconnect configs ({@code -inter_config_file
   * config_hopper_islip.icnt}), power model files ({@code -gpuwattch_xml_file}, AccelWattch's
   * {@code .xml}) and tables ({@code .csv}); the same globs Accel-Sim's run_simulations.py copies.
   */
  static final List<String> COMPANION_ENDINGS = List.of(".icnt", ".xml", ".csv");

  private SimConfigFiles() {}

  /**
   * The folder to give a sim on {@code config} as {@code CASCADE_GPU_CONFIG_DIR}: the config's own
   * folder, unless its {@code trace.config} is kept apart; then {@code
   * <dataDir>/work/gpu-configs/<name>}, (re)made of links to every file of the config's folder and
   * to its {@code trace.config}, so it always shows the files as they are now. Null for a built-in
   * config (no folder).
   */
  public static Path folderFor(GpuConfig config, Path dataDir) throws IOException {
    if (config.directory() == null || !config.traceConfigApart()) {
      return config.directory();
    }
    // Named after the config's folder, not the config: a labelled entry's name is free text.
    Path folder =
        dataDir
            .resolve("work")
            .resolve("gpu-configs")
            .resolve(config.directory().getFileName().toString());
    Files.createDirectories(folder);
    for (Path file : filesOf(config.directory())) {
      link(folder.resolve(file.getFileName().toString()), file);
    }
    link(folder.resolve("trace.config"), config.traceConfig());
    return folder;
  }

  /**
   * Links each companion file of {@code configFolder} ({@link #COMPANION_ENDINGS}) into {@code
   * workDir}, which is made when missing; a file already there of that name is replaced.
   */
  public static void linkCompanions(Path configFolder, Path workDir) throws IOException {
    List<Path> companions =
        filesOf(configFolder).stream()
            .filter(file -> COMPANION_ENDINGS.stream().anyMatch(file.toString()::endsWith))
            .toList();
    if (companions.isEmpty()) {
      return;
    }
    Files.createDirectories(workDir);
    for (Path companion : companions) {
      link(workDir.resolve(companion.getFileName().toString()), companion);
    }
  }

  /** The regular files of {@code folder} (links followed to their targets), absolute, sorted. */
  private static List<Path> filesOf(Path folder) throws IOException {
    try (Stream<Path> children = Files.list(folder)) {
      return children
          .filter(Files::isRegularFile)
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .map(file -> file.toAbsolutePath().normalize())
          .sorted()
          .toList();
    }
  }

  /**
   * Makes {@code link} point at {@code target}, replacing what is there in one rename, so a sim
   * launched at the same time on the same config never sees it missing.
   */
  private static void link(Path link, Path target) throws IOException {
    Path absolute = target.toAbsolutePath();
    if (Files.isSymbolicLink(link) && Files.readSymbolicLink(link).equals(absolute)) {
      return;
    }
    Path temporary = link.resolveSibling("." + link.getFileName() + "." + UUID.randomUUID());
    Files.createSymbolicLink(temporary, absolute);
    try {
      Files.move(temporary, link, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
  }
}
