package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a trace's kernels list is. A trace is given as any of: the list file itself, a folder
 * holding it, or a Cascade trace folder ({@code <trace>/metadata.json} and {@code <trace>/traces/})
 * holding it in {@code traces/}.
 */
public final class TraceLayout {

  /** The post-processed list Accel-Sim reads. */
  public static final String PROCESSED_LIST = "kernelslist.g";

  /** The raw list NVBit's tracer writes. */
  public static final String RAW_LIST = "kernelslist";

  /**
   * How Accel-Sim 2.0's tracer starts the name of its raw list for each CUDA context: {@code
   * kernelslist_ctx_0x<context>}; the post-processor writes the first as {@code kernelslist.g} and
   * each other as {@code kernelslist_ctx_0x<context>.g}.
   */
  public static final String CONTEXT_LIST_PREFIX = "kernelslist_ctx_";

  private static final Pattern RAW_CONTEXT_LIST =
      Pattern.compile(Pattern.quote(CONTEXT_LIST_PREFIX) + "0[xX]([0-9a-fA-F]+)");
  private static final Pattern PROCESSED_CONTEXT_LIST =
      Pattern.compile(Pattern.quote(CONTEXT_LIST_PREFIX) + "0[xX]([0-9a-fA-F]+)\\.g");

  /** The sub-folder of a Cascade trace folder holding the trace files. */
  public static final String TRACES_FOLDER = "traces";

  private TraceLayout() {}

  /**
   * The {@code kernelslist.g} of {@code path}: {@code path} itself when it is a file, else {@code
   * path/kernelslist.g}, else {@code path/traces/kernelslist.g}; empty when there is none.
   */
  public static Optional<Path> findProcessedList(Path path) {
    return find(path, PROCESSED_LIST);
  }

  /**
   * The first raw list of {@code path} ({@link #findRawLists}: {@code kernelslist}, else the first
   * context's {@code kernelslist_ctx_0x...}); empty when there is none.
   */
  public static Optional<Path> findRawList(Path path) {
    return findRawLists(path).stream().findFirst();
  }

  /**
   * Every raw list of {@code path}, the first being the one whose output is {@code kernelslist.g}:
   * {@code path} itself when it is a file; else, in {@code path} or else in {@code path/traces},
   * {@code kernelslist} and the per-context lists {@code kernelslist_ctx_0x<context>}, {@code
   * kernelslist} first and then the contexts in ascending number. (Upstream's tool takes them in
   * the order the folder lists them, which the file system decides; Cascade sorts so that the first
   * context is the same on every machine.) Empty when there is none.
   */
  public static List<Path> findRawLists(Path path) {
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    for (Path folder : new Path[] {path, path.resolve(TRACES_FOLDER)}) {
      List<Path> lists = new ArrayList<>();
      if (Files.isRegularFile(folder.resolve(RAW_LIST))) {
        lists.add(folder.resolve(RAW_LIST));
      }
      lists.addAll(contextLists(folder, RAW_CONTEXT_LIST));
      if (!lists.isEmpty()) {
        return List.copyOf(lists);
      }
    }
    return List.of();
  }

  /**
   * The processed lists of the other CUDA contexts beside {@code kernelsList} ({@code
   * kernelslist_ctx_0x<context>.g}), in ascending context number; empty for a one-context trace.
   */
  public static List<Path> findOtherContextLists(Path kernelsList) {
    Path folder = kernelsList.toAbsolutePath().normalize().getParent();
    return contextLists(folder, PROCESSED_CONTEXT_LIST);
  }

  /**
   * The name of a trace's first CUDA context, the one upstream's post-processor writes as {@code
   * kernelslist.g}: {@value}. The others are named by their lists without {@code .g} ({@code
   * kernelslist_ctx_0x2} for {@code kernelslist_ctx_0x2.g}).
   */
  public static final String FIRST_CONTEXT = "kernelslist";

  /**
   * The CUDA contexts of the trace whose first list is {@code kernelsList}, each name with its
   * processed list: {@value #FIRST_CONTEXT} with {@code kernelsList} first, then each other
   * context's {@code kernelslist_ctx_0x<context>} in ascending context number.
   */
  public static java.util.SequencedMap<String, Path> contexts(Path kernelsList) {
    java.util.LinkedHashMap<String, Path> contexts = new java.util.LinkedHashMap<>();
    contexts.put(FIRST_CONTEXT, kernelsList);
    for (Path other : findOtherContextLists(kernelsList)) {
      String name = other.getFileName().toString();
      contexts.put(name.substring(0, name.length() - ".g".length()), other);
    }
    return contexts;
  }

  /**
   * The context {@code name} names among {@link #contexts}: its list name with or without {@code
   * .g} ({@code kernelslist.g} and {@code kernelslist} both name the first); empty when the trace
   * has no such context.
   */
  public static Optional<String> contextName(Path kernelsList, String name) {
    String bare = name.endsWith(".g") ? name.substring(0, name.length() - ".g".length()) : name;
    return contexts(kernelsList).containsKey(bare) ? Optional.of(bare) : Optional.empty();
  }

  /**
   * The name of the processed list written for raw list {@code rawList}: {@code kernelslist.g} for
   * the first of a trace's lists, {@code <raw name>.g} for the others.
   */
  public static String processedListName(Path rawList, boolean first) {
    return first ? PROCESSED_LIST : rawList.getFileName() + ".g";
  }

  /**
   * Whether {@code name} is a kernels list's: {@code kernelslist}, {@code kernelslist.g}, or a
   * per-context {@code kernelslist_ctx_0x<context>} or {@code kernelslist_ctx_0x<context>.g}.
   */
  public static boolean isKernelsListName(String name) {
    return name.equals(RAW_LIST)
        || name.equals(PROCESSED_LIST)
        || RAW_CONTEXT_LIST.matcher(name).matches()
        || PROCESSED_CONTEXT_LIST.matcher(name).matches();
  }

  /** Whether {@code folder} itself (not its {@code traces/}) holds a kernels list file. */
  public static boolean holdsKernelsList(Path folder) {
    if (Files.isRegularFile(folder.resolve(PROCESSED_LIST))
        || Files.isRegularFile(folder.resolve(RAW_LIST))) {
      return true;
    }
    return !contextLists(folder, RAW_CONTEXT_LIST).isEmpty();
  }

  private static List<Path> contextLists(Path folder, Pattern pattern) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .filter(file -> pattern.matcher(file.getFileName().toString()).matches())
          .filter(Files::isRegularFile)
          .sorted(
              Comparator.comparing((Path file) -> contextNumber(file, pattern))
                  .thenComparing(file -> file.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static BigInteger contextNumber(Path file, Pattern pattern) {
    Matcher matcher = pattern.matcher(file.getFileName().toString());
    return matcher.matches() ? new BigInteger(matcher.group(1), 16) : BigInteger.ZERO;
  }

  private static Optional<Path> find(Path path, String name) {
    if (Files.isRegularFile(path)) {
      return Optional.of(path);
    }
    for (Path candidate :
        new Path[] {path.resolve(name), path.resolve(TRACES_FOLDER).resolve(name)}) {
      if (Files.isRegularFile(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
