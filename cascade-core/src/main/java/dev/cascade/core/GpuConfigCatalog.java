package dev.cascade.core;

import dev.cascade.core.internal.catalog.BuiltInCatalog;
import dev.cascade.core.internal.catalog.FolderCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * next call. {@link CascadeSettings#catalogFromEnvironment} picks the catalog the environment asks
 * for, as {@code cascade serve} does.
 */
public final class GpuConfigCatalog {

  /** Where a built Accel-Sim keeps its GPU configs: GPGPU-Sim's folders of gpgpusim.config. */
  public static final String TESTED_CFGS = "gpu-simulator/gpgpu-sim/configs/tested-cfgs";

  /**
   * Where Accel-Sim keeps each config's {@code trace.config}, apart from its {@code
   * gpgpusim.config}: {@code <this>/<name>/trace.config} under the Accel-Sim folder.
   */
  public static final String TRACE_CONFIGS = "gpu-simulator/configs/tested-cfgs";

  private final FolderCatalog folder;
  private final List<GpuConfig> builtIn;
  private final StandardConfigs standard;
  private final java.util.Map<String, GpuConfig> variants =
      new java.util.concurrent.ConcurrentHashMap<>();

  private GpuConfigCatalog(FolderCatalog folder, List<GpuConfig> builtIn) {
    this(folder, builtIn, null);
  }

  private GpuConfigCatalog(
      FolderCatalog folder, List<GpuConfig> builtIn, StandardConfigs standard) {
    this.folder = folder;
    this.builtIn = builtIn;
    this.standard = standard;
  }

  /**
   * This catalog, also taking Accel-Sim's composed names ({@code define-standard-cfgs.yml}, {@link
   * StandardConfigs}): a run entry naming {@code QV100-64SM-L1OFF} runs as a variant of the base's
   * folder with the extras' options, named {@code QV100-64SM-L1OFF}.
   */
  public GpuConfigCatalog withStandardConfigs(StandardConfigs standard) {
    return new GpuConfigCatalog(folder, builtIn, Objects.requireNonNull(standard, "standard"));
  }

  /** The composed names this catalog takes, when it was given them. */
  public Optional<StandardConfigs> standardConfigs() {
    return Optional.ofNullable(standard);
  }

  /** The configs in an Accel-Sim tested-cfgs folder. */
  public static GpuConfigCatalog fromFolder(Path folder) {
    Objects.requireNonNull(folder, "folder");
    return new GpuConfigCatalog(new FolderCatalog(folder.toAbsolutePath().normalize(), null), null);
  }

  /** Cascade's own catalog, used with the emulator when no Accel-Sim is installed. */
  public static GpuConfigCatalog builtIn() {
    return new GpuConfigCatalog(null, BuiltInCatalog.load());
  }

  /**
   * The configs of the built Accel-Sim in {@code accelSimDir}: its {@value #TESTED_CFGS} folder,
   * each with its {@code trace.config} from beside its {@code gpgpusim.config}, else from {@value
   * #TRACE_CONFIGS}{@code /<name>/}, where Accel-Sim keeps them apart (a sim then gets a folder
   * holding both: {@code CASCADE_GPU_CONFIG_DIR}).
   *
   * @throws CascadeException {@code INVALID} when that folder does not exist
   */
  public static GpuConfigCatalog forAccelSim(Path accelSimDir) {
    Path folder = Objects.requireNonNull(accelSimDir, "accelSimDir").resolve(TESTED_CFGS);
    if (!Files.isDirectory(folder)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "the GPU config folder \""
              + folder
              + "\" does not exist, so \""
              + accelSimDir
              + "\" is not a built Accel-Sim; point at the folder Accel-Sim was cloned and built"
              + " in");
    }
    Path root = accelSimDir.toAbsolutePath().normalize();
    return new GpuConfigCatalog(
        new FolderCatalog(root.resolve(TESTED_CFGS), root.resolve(TRACE_CONFIGS)), null);
  }

  /** Every config, usable or not, sorted by name. */
  public List<GpuConfig> list() {
    return folder == null ? builtIn : folder.list();
  }

  /**
   * The config with this exact name, if the catalog has it; else a variant of one of its configs
   * that a run made ({@link #rememberVariant}).
   */
  public Optional<GpuConfig> find(String name) {
    return list().stream()
        .filter(config -> config.name().equals(name))
        .findFirst()
        .or(() -> Optional.ofNullable(variants.get(name)));
  }

  /**
   * Remembers a run entry's variant of a catalog config (its options changed by the entry's params,
   * named as the entry names it), so that {@link #find} finds it by that name: its clock turns its
   * sims' cycles into time. {@link #list} does not show variants.
   */
  public void rememberVariant(GpuConfig variant) {
    Objects.requireNonNull(variant, "variant");
    variants.put(variant.name(), variant);
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
}
