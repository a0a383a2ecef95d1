package dev.cascade.core.internal.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The configs in a tested-cfgs folder, one per subdirectory. Each directory is read once and kept
 * (Caffeine) under its {@link DirectoryStamp}, so a listing re-reads only directories whose files
 * changed, and a directory added or removed shows up at the next listing.
 */
public final class FolderCatalog {

  private final Path folder;
  private final Path traceConfigs;
  private final Cache<DirectoryStamp, GpuConfig> configs =
      Caffeine.newBuilder().maximumSize(4096).build();

  /**
   * @param folder the tested-cfgs folder
   * @param traceConfigs where Accel-Sim keeps each config's {@code trace.config} apart ({@code
   *     <traceConfigs>/<name>/trace.config}), for a directory without one; null for none
   */
  public FolderCatalog(Path folder, Path traceConfigs) {
    this.folder = folder;
    this.traceConfigs = traceConfigs;
  }

  public Path folder() {
    return folder;
  }

  /** Every config directory, sorted by name; hidden directories and plain files are skipped. */
  public List<GpuConfig> list() {
    if (!Files.isDirectory(folder)) {
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "the GPU config folder \""
              + folder
              + "\" does not exist or is not a directory; point CASCADE_ACCELSIM_CONFIGS at"
              + " Accel-Sim's tested-cfgs folder");
    }
    try (Stream<Path> children = Files.list(folder)) {
      return children
          .filter(Files::isDirectory)
          .filter(child -> !child.getFileName().toString().startsWith("."))
          .map(child -> DirectoryStamp.of(child, traceConfigs))
          .map(
              stamp ->
                  configs.get(stamp, s -> ConfigDirectoryReader.read(s.directory(), traceConfigs)))
          .sorted(Comparator.comparing(GpuConfig::name))
          .toList();
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "cannot list the GPU config folder \"" + folder + "\": " + e.getMessage(),
          null,
          e);
    }
  }
}
