package dev.cascade.core.internal.trace;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which files under a trace folder are the trace, and which are the bookkeeping of an upload still
 * under way. Uploads arrive through an S3 server that writes objects as plain files, and such
 * servers write temporary files first:
 *
 * <ul>
 *   <li>s3proxy (file system blob store) writes each object to {@code <key>-<uuid>} beside it and
 *       then renames it into place, so a name ending in {@code -} and a canonical UUID is a
 *       temporary file;
 *   <li>s3proxy multipart uploads keep their parts under {@code .mpus-<upload id>-<key>-<part>} and
 *       a {@code ...-stub} (at the bucket root, see {@link #isMultipartTreeName}); older stores
 *       keep a stub named after the upload id alone, so a name that is exactly a UUID is one too;
 *   <li>rclone writes {@code <name>.<8 hex digits>.partial} ({@code --partial-suffix}, default
 *       {@code .partial}) and renames it when the transfer is done;
 *   <li>hidden files and folders (a path element starting with {@code .}), which also covers the
 *       {@code .mpus-} trees and editors' or tools' {@code .name.tmp} files; and plain {@code
 *       *.tmp} files.
 * </ul>
 *
 * These never count as trace content (nor towards the size on disk), but a change to one of them
 * shows an upload still at work, so they do reset the quiet period.
 */
final class UploadFiles {

  private static final Logger log = LoggerFactory.getLogger(UploadFiles.class);

  private static final String UUID =
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
  private static final Pattern S3PROXY_TEMP = Pattern.compile(".+-" + UUID);
  private static final Pattern UPLOAD_ID_STUB = Pattern.compile(UUID);
  private static final Pattern MULTIPART_TREE = Pattern.compile("\\.mpus-" + UUID + "-(.+)");

  private UploadFiles() {}

  /**
   * True when {@code relative} (a path under a trace folder) is upload bookkeeping rather than a
   * file of the trace: any hidden element, or a temporary file name.
   */
  static boolean isUploadBookkeeping(Path relative) {
    for (Path element : relative) {
      if (element.toString().startsWith(".")) {
        return true;
      }
    }
    Path name = relative.getFileName();
    return name != null && isTemporaryName(name.toString());
  }

  /** True for the name of a temporary file an S3 server or rclone writes during an upload. */
  static boolean isTemporaryName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return name.startsWith(".")
        || lower.endsWith(".partial")
        || lower.endsWith(".tmp")
        || S3PROXY_TEMP.matcher(name).matches()
        || UPLOAD_ID_STUB.matcher(name).matches();
  }

  /**
   * True when {@code name}, an entry at the bucket root, is s3proxy's multipart tree for keys under
   * {@code prefix}: {@code .mpus-<upload id>-accelsim-traces} holds {@code <trace id>/...} parts.
   */
  static boolean isMultipartTreeName(String name, String prefix) {
    var matcher = MULTIPART_TREE.matcher(name);
    return matcher.matches() && matcher.group(1).equals(prefix);
  }

  /**
   * The folders where s3proxy keeps the parts of multipart uploads into trace {@code id}: at the
   * bucket root, {@code .mpus-<upload id>-<prefix>/<trace id>/...}. Parts still arriving there mean
   * the trace's upload is still under way.
   */
  static List<Path> multipartTrees(Path bucketFolder, String prefix, String id) {
    List<Path> trees = new ArrayList<>();
    if (bucketFolder == null || !Files.isDirectory(bucketFolder)) {
      return trees;
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(
            bucketFolder, entry -> isMultipartTreeName(entry.getFileName().toString(), prefix))) {
      for (Path entry : entries) {
        Path tree = entry.resolve(id);
        if (Files.isDirectory(tree, LinkOption.NOFOLLOW_LINKS)) {
          trees.add(tree);
        }
      }
    } catch (IOException e) {
      log.debug("cannot list \"{}\": {}", bucketFolder, e.toString());
    }
    return trees;
  }
}
