package dev.cascade.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.core.ErrorCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What {@code cascade traces push} uploads from a folder, in order, and under which names (relative
 * to {@code accelsim-traces/<id>/}). Two layouts are accepted: a Cascade trace folder ({@code
 * metadata.json} beside {@code traces/}), uploaded as it is; or a bare Accel-Sim trace folder
 * ({@code kernelslist.g} or {@code kernelslist} at its top), whose files go under {@code traces/}.
 * Hidden files are left out. Kernel files come first, then the kernels lists, and {@code
 * metadata.json} last, because its arrival is what tells Cascade the upload is complete; a folder
 * without one gets {@link GeneratedMetadata}'s, as {@code cascade run} gives it: complete, with the
 * architecture its kernels' binary version names.
 *
 * @param files every file to upload, in upload order
 * @param generatedMetadata true when {@code metadata.json} was made up here
 * @param bare true for the bare layout
 */
record PushPlan(List<Entry> files, boolean generatedMetadata, boolean bare) {

  static final String METADATA = "metadata.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One object to upload.
   *
   * @param name its key below {@code accelsim-traces/<id>/}, with {@code /}
   * @param source the file; null for generated content
   * @param content the generated content; null for a file
   * @param size bytes
   */
  record Entry(String name, Path source, byte[] content, long size) {}

  PushPlan {
    files = List.copyOf(files);
  }

  long totalBytes() {
    return files.stream().mapToLong(Entry::size).sum();
  }

  /**
   * Reads {@code folder}.
   *
   * @throws PushException when it is no trace folder, or its metadata says the profiler is still
   *     running or is not JSON
   */
  static PushPlan of(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      throw new PushException(
          ErrorCode.INVALID, "\"" + folder + "\" is not a folder; give the trace's folder");
    }
    boolean bare;
    if (Files.isDirectory(folder.resolve("traces"))) {
      bare = false;
      if (!hasKernelsList(folder.resolve("traces"))) {
        throw new PushException(
            ErrorCode.INVALID,
            "\""
                + folder
                + "\" has a traces/ folder without kernelslist.g or kernelslist; a trace needs"
                + " one of them");
      }
    } else if (hasKernelsList(folder)) {
      bare = true;
    } else {
      throw new PushException(
          ErrorCode.INVALID,
          "\""
              + folder
              + "\" is not a trace folder: it holds neither traces/ (with kernelslist.g) nor"
              + " kernelslist.g or kernelslist; give the folder the profiler wrote");
    }
    List<Entry> files = new ArrayList<>();
    Path metadata = folder.resolve(METADATA);
    boolean hasMetadata = Files.isRegularFile(metadata);
    if (hasMetadata) {
      checkMetadata(metadata);
    }
    for (Path file : regularFiles(folder)) {
      String relative = slashes(folder.relativize(file));
      if (relative.equals(METADATA)) {
        continue;
      }
      // In a bare folder everything is the trace's but hardware/, the GPU's own numbers.
      boolean trace = bare && !relative.startsWith(TraceImport.HARDWARE + "/");
      files.add(new Entry(trace ? "traces/" + relative : relative, file, null, Files.size(file)));
    }
    files.sort(Comparator.comparingInt(PushPlan::rank).thenComparing(Entry::name));
    if (hasMetadata) {
      files.add(new Entry(METADATA, metadata, null, Files.size(metadata)));
    } else {
      byte[] content =
          GeneratedMetadata.forTraces(bare ? folder : folder.resolve("traces"))
              .getBytes(StandardCharsets.UTF_8);
      files.add(new Entry(METADATA, null, content, content.length));
    }
    return new PushPlan(files, !hasMetadata, bare);
  }

  /** Kernel files (and anything else) first, then the kernels lists. */
  private static int rank(Entry entry) {
    String name = entry.name().substring(entry.name().lastIndexOf('/') + 1);
    return TraceLayout.isKernelsListName(name) ? 1 : 0;
  }

  private static boolean hasKernelsList(Path folder) {
    return TraceLayout.holdsKernelsList(folder);
  }

  private static void checkMetadata(Path metadata) throws IOException {
    String text = Files.readString(metadata, StandardCharsets.UTF_8);
    JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new PushException(
          ErrorCode.CONFLICT,
          "\""
              + metadata
              + "\" is not valid JSON ("
              + e.getOriginalMessage()
              + "); fix it, or remove it to upload the trace as complete");
    }
    if (json != null
        && "running".equals(json.path("status").asText("").strip().toLowerCase(Locale.ROOT))) {
      throw new PushException(
          ErrorCode.CONFLICT,
          "\""
              + metadata
              + "\" says \"status\": \"running\": the profiler has not finished this trace, and"
              + " Cascade would wait for it forever; push it once the profiler is done");
    }
  }

  private static List<Path> regularFiles(Path folder) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(
        folder,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            return !dir.equals(folder) && hidden(dir)
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (attributes.isRegularFile() && !hidden(file)) {
              files.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return files;
  }

  private static boolean hidden(Path path) {
    return path.getFileName().toString().startsWith(".");
  }

  private static String slashes(Path relative) {
    StringBuilder text = new StringBuilder();
    for (Path element : relative) {
      if (!text.isEmpty()) {
        text.append('/');
      }
      text.append(element);
    }
    return text.toString();
  }
}
