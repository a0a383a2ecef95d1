package dev.cascade.core.internal.trace;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.SkippedFolder;
import dev.cascade.core.Trace;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The traces folder, {@code $CASCADE_DATA_DIR/s3/cascade/accelsim-traces}, and the safety of the
 * trace folders in it: a trace id must be valid and name a folder directly inside it, and a folder
 * that is a symbolic link must lead inside it too, so Cascade never reads a trace from elsewhere. A
 * folder refused while scanning is warned about once, and listed with why ({@link #skipped()}).
 */
final class TraceFolders {

  /** The S3 bucket uploads arrive in, under {@code $CASCADE_DATA_DIR/s3/}. */
  static final String BUCKET = "cascade";

  /** The key prefix, and folder in the bucket, that holds one folder per trace. */
  static final String PREFIX = "accelsim-traces";

  private static final Logger log = LoggerFactory.getLogger(TraceFolders.class);

  private final Path root;
  private final Path bucketFolder;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private volatile List<SkippedFolder> skipped = List.of();

  TraceFolders(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.bucketFolder = this.root.getParent();
  }

  /** {@code $dataDir/s3/cascade/accelsim-traces}, absolute. */
  static Path tracesFolder(Path dataDir) {
    return dataDir.toAbsolutePath().normalize().resolve("s3").resolve(BUCKET).resolve(PREFIX);
  }

  Path root() {
    return root;
  }

  /**
   * The folder of trace {@code id}, guaranteed inside the traces folder: the id must be valid, and
   * when the folder is a symbolic link it must lead inside the traces folder too.
   *
   * @throws CascadeException {@code INVALID} for an invalid id ({@link Trace#invalidId}), {@code
   *     FORBIDDEN} for a link that leads outside the traces folder or nowhere
   */
  Path folderOf(String id) {
    if (!Trace.isValidId(id)) {
      throw Trace.invalidId(id);
    }
    Path folder = root.resolve(id).normalize(); // a valid id has no separator, so this is a child
    if (Files.isSymbolicLink(folder)) {
      requireLinkInside(folder);
    }
    return folder;
  }

  /**
   * The folder of {@code id} when it is a safe trace folder; null (warned once) otherwise. Hidden
   * names are upload bookkeeping (s3proxy's {@code .mpus-} trees), never traces: null, silently.
   */
  Path safeFolder(String id) {
    return id.startsWith(".") ? null : safeFolderOrWhy(id).folder();
  }

  /** A folder, or why it is not a safe trace folder. */
  private record Checked(Path folder, String reason) {}

  private Checked safeFolderOrWhy(String id) {
    try {
      return new Checked(folderOf(id), null);
    } catch (CascadeException e) {
      if (warned.add(id)) {
        log.warn("skipping \"{}\" in the traces folder: {}", id, e.getMessage());
      }
      return new Checked(null, e.getMessage());
    }
  }

  /** The folders the last {@link #list()} found that are not traces, with why, by name. */
  List<SkippedFolder> skipped() {
    return skipped;
  }

  /**
   * The ids of the trace folders in the traces folder: plain folders with a safe name. Hidden
   * entries, plain files and symbolic links are skipped (a link is warned about once).
   */
  Set<String> list() throws IOException {
    Set<String> ids = new LinkedHashSet<>();
    if (!Files.isDirectory(root)) {
      skipped = List.of();
      return ids;
    }
    List<SkippedFolder> refused = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(".")) {
          continue; // upload bookkeeping (such as .mpus- trees), never a trace
        }
        boolean link = Files.isSymbolicLink(entry);
        if (!link && !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          continue; // a plain file beside the trace folders is not a trace
        }
        Checked checked = safeFolderOrWhy(name);
        if (checked.folder() == null) {
          refused.add(new SkippedFolder(name, checked.reason()));
        } else if (link) {
          // Never followed: one leading outside is refused above, any other skipped.
          String reason = "it is a symbolic link; upload traces as plain folders";
          if (warned.add(name)) {
            log.warn("skipping \"{}\" in the traces folder: {}", name, reason);
          }
          refused.add(new SkippedFolder(name, reason));
        } else {
          ids.add(name);
        }
      }
    }
    refused.sort(Comparator.comparing(SkippedFolder::name));
    skipped = List.copyOf(refused);
    return ids;
  }

  /**
   * The trace's files now, with s3proxy's multipart parts for it counted as upload activity (see
   * {@link UploadFiles}).
   */
  FolderSnapshot snapshot(String id, Path folder) {
    return FolderSnapshot.take(folder, UploadFiles.multipartTrees(bucketFolder, PREFIX, id));
  }

  private void requireLinkInside(Path folder) {
    Path target;
    Path realRoot;
    try {
      target = folder.toRealPath();
      realRoot = root.toRealPath();
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "trace folder \""
              + folder
              + "\" is a symbolic link that leads nowhere ("
              + e
              + "); remove it or upload the trace as plain files",
          "id");
    }
    if (!target.startsWith(realRoot) || target.equals(realRoot)) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "trace folder \""
              + folder
              + "\" is a symbolic link to \""
              + target
              + "\", outside the traces folder \""
              + realRoot
              + "\"; Cascade never reads a trace from outside it: remove the link and upload"
              + " the trace instead",
          "id");
    }
  }
}
