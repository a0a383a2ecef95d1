package dev.cascade.agent.emulator;

import dev.cascade.accelsim.trace.KernelHeader;
import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceFormatException;
import dev.cascade.accelsim.trace.TraceReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The emulator's per-kernel counts, computed once when the trace is processed and kept beside its
 * {@code kernelslist.g} as {@value #FILE_NAME}, so a sim starts without decompressing and scanning
 * every kernel file (DESIGN.md section 9). Each kernel's entry holds its header lines and, when the
 * file was small enough to count, what {@link EmulatedTrace} counts in it.
 *
 * <p>An entry is used only for the kernel it was made for: the same position in the list, the same
 * listed name and the same file size. Anything else (no file, another version, a line that does not
 * parse) leaves the kernel to be read from its trace as before, so older traces still run and the
 * cycles never depend on whether the file is there.
 *
 * <pre>
 * cascade-emulator-counts 1
 * kernel INDEX BYTES COUNTED WARP THREAD LOADS STORES SHARED LOAD_BYTES STORE_BYTES LONGEST TRIPS NAME
 * -kernel name = ...
 * </pre>
 */
public final class PrecomputedCounts {

  /** The file's name, beside {@code kernelslist.g}. */
  public static final String FILE_NAME = "kernelslist.g.counts";

  static final String MAGIC = "cascade-emulator-counts 1";

  private static final int NUMBERS = 9;

  /** One kernel's entry: the header lines, and the counts when they were counted. */
  record Entry(int index, long bytes, String listedName, List<String> headerLines, long[] counts) {
    boolean counted() {
      return counts != null;
    }
  }

  private final Map<Integer, Entry> entries;

  private PrecomputedCounts(Map<Integer, Entry> entries) {
    this.entries = entries;
  }

  /** No precomputed counts: every kernel is read from its file. */
  static final PrecomputedCounts NONE = new PrecomputedCounts(Map.of());

  /** Where the counts of the trace listed in {@code kernelsList} are kept. */
  public static Path fileFor(Path kernelsList) {
    return kernelsList.resolveSibling(FILE_NAME);
  }

  /**
   * Counts the trace listed in {@code kernelsList} from its files, as a sim with the default count
   * limit would, and writes {@link #fileFor} atomically. Returns the file written.
   *
   * @throws IOException when the trace cannot be read or the file cannot be written
   */
  public static Path write(Path kernelsList) throws IOException {
    EmulatedTrace trace =
        EmulatedTrace.load(kernelsList, EmulatedTrace.DEFAULT_COUNT_LIMIT_BYTES, NONE);
    StringBuilder text = new StringBuilder(MAGIC).append('\n');
    for (EmulatedKernel k : trace.kernels()) {
      text.append("kernel ")
          .append(k.index())
          .append(' ')
          .append(Files.size(k.file()))
          .append(' ')
          .append(k.counted() ? 1 : 0);
      long[] numbers = {
        k.warpInstructions(),
        k.threadInstructions(),
        k.globalLoads(),
        k.globalStores(),
        k.sharedAccesses(),
        k.loadBytes(),
        k.storeBytes(),
        k.longestWarp(),
        k.loadRoundTrips()
      };
      for (long number : numbers) {
        text.append(' ').append(k.counted() ? number : 0);
      }
      text.append(' ').append(k.listedName()).append('\n');
      for (Map.Entry<String, String> field : k.header().fields().entrySet()) {
        text.append('-').append(field.getKey()).append(" = ").append(field.getValue());
        text.append('\n');
      }
    }
    Path file = fileFor(kernelsList);
    Path partial = file.resolveSibling(FILE_NAME + ".partial");
    try (Writer out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
      out.write(text.toString());
    }
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return file;
  }

  /**
   * The counts beside {@code kernelsList}; {@link #NONE} when there is no file or it cannot be read
   * as one (the kernels are then read from their traces).
   */
  static PrecomputedCounts read(Path kernelsList) {
    Path file = fileFor(kernelsList);
    if (!Files.isRegularFile(file)) {
      return NONE;
    }
    Map<Integer, Entry> entries = new HashMap<>();
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      if (!MAGIC.equals(reader.readLine())) {
        return NONE;
      }
      Entry open = null;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.startsWith("-") && open != null) {
          open.headerLines().add(line);
        } else if (line.startsWith("kernel ")) {
          open = entry(line);
          entries.put(open.index(), open);
        } else if (!line.isEmpty()) {
          return NONE;
        }
      }
    } catch (IOException | RuntimeException e) {
      return NONE; // unreadable: the traces themselves still are
    }
    return new PrecomputedCounts(entries);
  }

  private static Entry entry(String line) {
    String[] fields = line.split(" ", 5 + NUMBERS);
    if (fields.length != 5 + NUMBERS) {
      throw new IllegalArgumentException("a kernel line has " + fields.length + " fields");
    }
    long[] counts = new long[NUMBERS];
    for (int i = 0; i < NUMBERS; i++) {
      counts[i] = Long.parseLong(fields[4 + i]);
    }
    return new Entry(
        Integer.parseInt(fields[1]),
        Long.parseLong(fields[2]),
        fields[4 + NUMBERS],
        new ArrayList<>(),
        fields[3].equals("1") ? counts : null);
  }

  /**
   * One kernel's memory counts as kept in {@value #FILE_NAME}, for readers outside the emulator
   * (kernel sampling's features): warp instructions, global loads and stores (warp-level, with an
   * active lane), and the bytes they move.
   *
   * @param index the kernel's position among the kernel lines of {@code kernelslist.g}, from 1
   */
  public record KernelCounts(
      int index,
      long warpInstructions,
      long globalLoads,
      long globalStores,
      long loadBytes,
      long storeBytes) {}

  /**
   * The counted kernels of the trace listed in {@code kernelsList}, by position; empty when there
   * is no counts file or it cannot be read, and without the kernels too large to count.
   */
  public static Map<Integer, KernelCounts> countsOf(Path kernelsList) {
    Map<Integer, KernelCounts> counts = new HashMap<>();
    for (Entry entry : read(kernelsList).entries.values()) {
      if (entry.counted()) {
        long[] c = entry.counts();
        counts.put(entry.index(), new KernelCounts(entry.index(), c[0], c[2], c[3], c[5], c[6]));
      }
    }
    return Map.copyOf(counts);
  }

  /** The entry made for this kernel of the list, when there is one and its file is unchanged. */
  Optional<Entry> forKernel(int index, KernelsList.Kernel kernel, long bytes) {
    Entry entry = entries.get(index);
    if (entry == null || entry.bytes() != bytes || !entry.listedName().equals(kernel.line())) {
      return Optional.empty();
    }
    return Optional.of(entry);
  }

  /** The kernel's header as kept in {@code entry}; empty when it does not parse. */
  static Optional<KernelHeader> header(Entry entry, Path file) {
    try {
      return Optional.of(TraceReader.headerOf(file, entry.headerLines()));
    } catch (TraceFormatException e) {
      return Optional.empty(); // the file's own header is read instead
    }
  }
}
