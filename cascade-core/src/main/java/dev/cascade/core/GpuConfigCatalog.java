package dev.cascade.core;

import dev.cascade.core.internal.catalog.BuiltInCatalog;
import dev.cascade.core.internal.catalog.FolderCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPU configs sims can run on: the directories of an Accel-Sim tested-cfgs folder, or, with no
 * Accel-Sim installed, Cascade's built-in catalog for the emulator.
 *
 * <p>For a folder, each directory's architecture comes from its name ({@code SM90_H100} gives
 * {@code sm_90}), cross-checked against the compute capability in its {@code gpgpusim.config} (a
 * mismatch is a warning; a name without an architecture falls back to the file's); the core clock
 * from the first {@code -gpgpu_clock_domains} line; the SM count from {@code -gpgpu_n_clusters} x
 * {@code -gpgpu_n_cores_per_cluster}. A directory that cannot be read is listed as unusable, with
 * the reason. The listing follows the folder: a changed, added or removed directory shows up at the
 * next call.
 */
public final class GpuConfigCatalog {

  /** Names the folder of configs; wins over {@link #ACCELSIM_DIR_ENV}. */
  public static final String CONFIGS_ENV = "CASCADE_ACCELSIM_CONFIGS";

  /**
   * A built Accel-Sim; its tested-cfgs folder is the catalog when {@link #CONFIGS_ENV} is unset.
   */
  public static final String ACCELSIM_DIR_ENV = "CASCADE_ACCELSIM_DIR";

  static final String TESTED_CFGS = "gpu-simulator/gpgpu-sim/configs/tested-cfgs";

  private final FolderCatalog folder;
  private final List<GpuConfig> builtIn;

  private GpuConfigCatalog(FolderCatalog folder, List<GpuConfig> builtIn) {
    this.folder = folder;
    this.builtIn = builtIn;
  }

  /** The configs in an Accel-Sim tested-cfgs folder. */
  public static GpuConfigCatalog fromFolder(Path folder) {
    Objects.requireNonNull(folder, "folder");
    return new GpuConfigCatalog(new FolderCatalog(folder.toAbsolutePath().normalize()), null);
  }

  /** Cascade's own catalog, used with the emulator when no Accel-Sim is installed. */
  public static GpuConfigCatalog builtIn() {
    return new GpuConfigCatalog(null, BuiltInCatalog.load());
  }

  /**
   * The catalog the environment asks for: {@code CASCADE_ACCELSIM_CONFIGS}, else {@code
   * $CASCADE_ACCELSIM_DIR/gpu-simulator/gpgpu-sim/configs/tested-cfgs}, else the built-in one. A
   * variable naming a folder that does not exist is an error that names it.
   */
  public static GpuConfigCatalog fromEnvironment(Map<String, String> environment) {
    String configs = blankToNull(environment.get(CONFIGS_ENV));
    if (configs != null) {
      return fromFolder(requireFolder(Path.of(configs), CONFIGS_ENV + "=" + configs));
    }
    String accelSim = blankToNull(environment.get(ACCELSIM_DIR_ENV));
    if (accelSim != null) {
      Path folder = Path.of(accelSim).resolve(TESTED_CFGS);
      return fromFolder(requireFolder(folder, ACCELSIM_DIR_ENV + "=" + accelSim));
    }
    return builtIn();
  }

  /** Every config, usable or not, sorted by name. */
  public List<GpuConfig> list() {
    return folder == null ? builtIn : folder.list();
  }

  /** The config with this exact name, if the catalog has it. */
  public Optional<GpuConfig> find(String name) {
    return list().stream().filter(config -> config.name().equals(name)).findFirst();
  }

  /** True for the built-in catalog (no Accel-Sim configs folder). */
  public boolean isBuiltIn() {
    return folder == null;
  }

  /** The tested-cfgs folder; empty for the built-in catalog. */
  public Optional<Path> folder() {
    return folder == null ? Optional.empty() : Optional.of(folder.folder());
  }

  /** Where the configs come from, for people: a folder, or "built-in". */
  public String source() {
    return folder == null ? "built-in (no Accel-Sim configured)" : folder.folder().toString();
  }

  private static Path requireFolder(Path folder, String setting) {
    if (!Files.isDirectory(folder)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "the GPU config folder \""
              + folder
              + "\" from "
              + setting
              + " does not exist; point it at Accel-Sim's tested-cfgs folder, or unset it to use"
              + " the built-in catalog",
          CONFIGS_ENV);
    }
    return folder;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
