package dev.cascade.accelsim.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A kernels list in order: Accel-Sim's {@code kernelslist.g}, or the tracer's raw {@code
 * kernelslist}, which has the same two kinds of line.
 *
 * <ul>
 *   <li>{@code MemcpyHtoD,0x00007f05ae000000,2048}: a copy to the GPU, a {@link Memcpy};
 *   <li>{@code kernel-1.traceg} (any line starting {@code kernel}): a kernel launch, a {@link
 *       Kernel}, its file relative to the list's folder.
 * </ul>
 *
 * <p>Reading is lenient where Accel-Sim is: blank lines are skipped, and so (unlike Accel-Sim) are
 * {@code #} comment lines, surrounding spaces and a trailing {@code '\r'}. Any other line, a memcpy
 * line that does not parse, or a kernel path leaving the list's folder is a {@link
 * TraceFormatException} naming {@code file:line}.
 */
public final class KernelsList {

  /** One line of a kernels list. */
  public sealed interface Entry permits Memcpy, Kernel {
    /** The 1-based line number in the list. */
    int lineNumber();

    /** The line's text, trimmed. */
    String line();
  }

  /**
   * A memcpy line, {@code <kind>,0x<address>,<bytes>}.
   *
   * @param lineNumber 1-based line in the list
   * @param line the line as written (trimmed)
   * @param kind the text before the first comma, {@code MemcpyHtoD} in every real trace
   * @param address the destination address on the GPU (unsigned 64-bit)
   * @param bytes the size of the copy
   */
  public record Memcpy(int lineNumber, String line, String kind, long address, long bytes)
      implements Entry {
    public Memcpy {
      Objects.requireNonNull(line, "line");
      Objects.requireNonNull(kind, "kind");
    }

    /** The address as {@code 0x} and 16 hex digits. */
    public String addressHex() {
      return String.format("0x%016x", address);
    }
  }

  /**
   * A kernel line.
   *
   * @param lineNumber 1-based line in the list
   * @param line the file name as listed, {@code kernel-1.traceg.xz}
   * @param file that name resolved against the list's folder
   */
  public record Kernel(int lineNumber, String line, Path file) implements Entry {
    public Kernel {
      Objects.requireNonNull(line, "line");
      Objects.requireNonNull(file, "file");
    }
  }

  private final Path file;
  private final List<Entry> entries;
  private final List<String> skippedLines;

  private KernelsList(Path file, List<Entry> entries, List<String> skippedLines) {
    this.file = file;
    this.entries = List.copyOf(entries);
    this.skippedLines = List.copyOf(skippedLines);
  }

  /**
   * Reads a kernels list file.
   *
   * @throws TraceFormatException for a line that is neither a memcpy nor a kernel, naming {@code
   *     file:line}
   * @throws IOException when the file cannot be read
   */
  public static KernelsList read(Path file) throws IOException {
    return read(file, false);
  }

  /**
   * Reads a kernels list file, skipping the lines that are neither a memcpy nor a kernel (as
   * Accel-Sim 2.0's post-processor does, saying "Undefined command"); they are in {@link
   * #skippedLines()}. A memcpy line that does not parse still fails.
   *
   * @throws TraceFormatException for a bad memcpy line or kernel path, naming {@code file:line}
   * @throws IOException when the file cannot be read
   */
  public static KernelsList readSkippingUnknownLines(Path file) throws IOException {
    return read(file, true);
  }

  private static KernelsList read(Path file, boolean skipUnknown) throws IOException {
    List<String> skipped = new ArrayList<>();
    Path folder = file.toAbsolutePath().normalize().getParent();
    List<Entry> entries = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
      String raw;
      int lineNumber = 0;
      while ((raw = reader.readLine()) != null) {
        lineNumber++;
        String line = raw.strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        if (line.startsWith("Memcpy")) {
          entries.add(memcpy(file, lineNumber, line));
        } else if (line.startsWith("kernel")) {
          entries.add(new Kernel(lineNumber, line, resolve(file, folder, lineNumber, line)));
        } else if (skipUnknown) {
          skipped.add(raw);
        } else {
          throw new TraceFormatException(
              file,
              lineNumber,
              "'"
                  + shorten(line)
                  + "' is neither a memcpy line ('MemcpyHtoD,0x<address>,<bytes>') nor a kernel"
                  + " line ('kernel-<n>.traceg')");
        }
      }
    }
    return new KernelsList(file, entries, skipped);
  }

  /** The lines skipped as neither memcpy nor kernel (only when read skipping them), in order. */
  public List<String> skippedLines() {
    return skippedLines;
  }

  /** The list file read. */
  public Path file() {
    return file;
  }

  /** The folder kernel files are relative to. */
  public Path folder() {
    return file.toAbsolutePath().normalize().getParent();
  }

  /** Every memcpy and kernel line, in order. */
  public List<Entry> entries() {
    return entries;
  }

  /** The kernel lines, in order. */
  public List<Kernel> kernels() {
    return entries.stream().filter(Kernel.class::isInstance).map(Kernel.class::cast).toList();
  }

  /** The memcpy lines, in order. */
  public List<Memcpy> memcpys() {
    return entries.stream().filter(Memcpy.class::isInstance).map(Memcpy.class::cast).toList();
  }

  /**
   * The trace's kernel count: its kernel lines (a folder may hold more kernel files than the list
   * names; Accel-Sim runs only the listed ones).
   */
  public int kernelCount() {
    return (int) entries.stream().filter(Kernel.class::isInstance).count();
  }

  /**
   * Checks that {@code kernel}, one of this list's lines, names a file that is there.
   *
   * @throws TraceFormatException naming this list's {@code file:line} when it is not
   */
  public void requireFile(Kernel kernel) {
    if (!Files.isRegularFile(kernel.file())) {
      throw new TraceFormatException(
          file,
          kernel.lineNumber(),
          "the list names '"
              + kernel.line()
              + "', which is not a file in "
              + folder()
              + "; upload it or remove the line");
    }
  }

  private static Memcpy memcpy(Path file, int lineNumber, String line) {
    String[] parts = line.split(",", -1);
    if (parts.length == 3) {
      try {
        String hex = parts[1].strip();
        if (hex.startsWith("0x") || hex.startsWith("0X")) {
          hex = hex.substring(2);
        }
        long address = Long.parseUnsignedLong(hex, 16);
        long bytes = Long.parseLong(parts[2].strip());
        if (bytes >= 0) {
          return new Memcpy(lineNumber, line, parts[0].strip(), address, bytes);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new TraceFormatException(
        file,
        lineNumber,
        "memcpy line '"
            + shorten(line)
            + "' is not of the form 'MemcpyHtoD,0x<hex address>,<bytes>'");
  }

  private static Path resolve(Path file, Path folder, int lineNumber, String name) {
    Path resolved = folder.resolve(name).normalize();
    if (!resolved.startsWith(folder) || resolved.equals(folder)) {
      throw new TraceFormatException(
          file,
          lineNumber,
          "kernel file '" + shorten(name) + "' is outside the list's folder " + folder);
    }
    return resolved;
  }

  private static String shorten(String text) {
    return text.length() <= 120 ? text : text.substring(0, 117) + "...";
  }
}
