package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads single kernel traces: {@code .traceg}, {@code .traceg.xz} and Accel-Sim 2.0's {@code
 * .tracez} (read as the text it holds) as Accel-Sim runs them, and raw {@code .trace} and {@code
 * .trace.xz} as NVBit's tracer writes them. Everything streams: the header read stops at the
 * header's end, and counting instructions holds one line at a time.
 *
 * <p>xz is recognised by the file's first bytes, not its name.
 */
public final class TraceReader {

  private static final int MAX_HEADER_LINE = 1 << 20;

  private TraceReader() {}

  /**
   * Reads the {@code -key = value} header at the start of a kernel trace, stopping at the first
   * line that is not a header line ({@code #traces format = ...} in every real trace), so only the
   * first few kilobytes are read or decompressed.
   *
   * @throws TraceFormatException when the header lacks {@code -kernel name}, {@code -grid dim} or
   *     {@code -block dim}, or a known field has a value that is not a number
   * @throws IOException when the file cannot be read
   */
  public static KernelHeader readHeader(Path trace) throws IOException {
    try (InputStream in = TraceFiles.openDecompressed(trace)) {
      LineReader lines = new LineReader(in, trace, 8 << 10, MAX_HEADER_LINE);
      HeaderBuilder header = new HeaderBuilder(trace);
      while (lines.next()) {
        int start = lines.start();
        if (lines.end() == start) {
          continue;
        }
        if (lines.buffer()[start] != '-') {
          break;
        }
        header.add(lines.text(), lines.lineNumber());
      }
      return header.build(lines.lineNumber());
    }
  }

  /**
   * Reads a header from its {@code -key = value} lines as {@link #readHeader} would find them in
   * {@code trace} (named in errors), for a header kept elsewhere, such as the emulator's
   * precomputed counts.
   *
   * @throws TraceFormatException as {@link #readHeader}, for the same missing or bad fields
   */
  public static KernelHeader headerOf(Path trace, java.util.List<String> lines) {
    HeaderBuilder header = new HeaderBuilder(trace);
    long number = 0;
    for (String line : lines) {
      number++;
      if (!line.isEmpty() && line.charAt(0) == '-') {
        header.add(line, number);
      }
    }
    return header.build(number);
  }

  /**
   * Counts a kernel's instructions by reading the whole file. For a post-processed trace ({@code
   * .traceg}, {@code .traceg.xz}) this is the sum of its {@code insts = n} lines; for a raw trace
   * ({@code .trace}, {@code .trace.xz}) it is the number of instruction lines the post-processor
   * would keep (without the dropped LDGSTS halves), so both forms of a kernel give the same number;
   * for a {@code .tracez}, the sum of its index's counts (its text's {@code insts = n} lines).
   *
   * @throws TraceFormatException when the name ends in none of those four suffixes, or a line
   *     cannot be read
   * @throws IOException when the file cannot be read
   */
  public static long countInstructions(Path trace) throws IOException {
    String name = trace.getFileName().toString();
    if (Tracez.isTracez(trace)) {
      return Tracez.countInstructions(trace);
    }
    if (name.endsWith(".traceg") || name.endsWith(".traceg.xz")) {
      return countProcessed(trace);
    }
    if (name.endsWith(".trace") || name.endsWith(".trace.xz")) {
      return countRaw(trace);
    }
    throw new TraceFormatException(
        trace,
        0,
        "cannot tell a raw trace from a processed one by the name '"
            + name
            + "'; expected .trace, .trace.xz, .traceg, .traceg.xz or .tracez");
  }

  /**
   * Opens a trace or any other file for reading, decompressed if it is xz. The stream reports
   * corrupt or truncated xz data as a {@link TraceFormatException} naming the file.
   */
  public static InputStream open(Path file) throws IOException {
    return TraceFiles.openDecompressed(file);
  }

  private static long countProcessed(Path trace) throws IOException {
    try (InputStream in = TraceFiles.openDecompressed(trace)) {
      LineReader lines = new LineReader(in, trace, 1 << 20, RawTraceScanner.MAX_LINE_LENGTH);
      long total = 0;
      while (lines.next()) {
        byte[] b = lines.buffer();
        int s = lines.start();
        int e = lines.end();
        // "insts = n"; instruction lines start with a hex PC, so 'i' first is rare enough.
        if (e - s < 5
            || b[s] != 'i'
            || b[s + 1] != 'n'
            || b[s + 2] != 's'
            || b[s + 3] != 't'
            || b[s + 4] != 's') {
          continue;
        }
        total += instsValue(lines, trace);
      }
      return total;
    }
  }

  private static long instsValue(LineReader lines, Path trace) {
    byte[] b = lines.buffer();
    int p = lines.start() + 5;
    int e = lines.end();
    while (p < e && b[p] == ' ') {
      p++;
    }
    if (p < e && b[p] == '=') {
      p++;
      while (p < e && b[p] == ' ') {
        p++;
      }
      int digits = p;
      long value = 0;
      while (p < e && b[p] >= '0' && b[p] <= '9' && p - digits < 18) {
        value = value * 10 + (b[p] - '0');
        p++;
      }
      if (p > digits && (p == e || b[p] == ' ' || b[p] == '\r')) {
        return value;
      }
    }
    throw new TraceFormatException(
        trace, lines.lineNumber(), "'" + lines.text() + "' is not 'insts = <count>'");
  }

  private static long countRaw(Path trace) throws IOException {
    try (InputStream in = TraceFiles.openDecompressed(trace)) {
      RawTraceScanner scanner = new RawTraceScanner(trace);
      scanner.scan(
          in,
          new RawTraceScanner.Handler() {
            @Override
            public void echo(byte[] buffer, int start, int end) {}

            @Override
            public void instruction(int block, int warp, byte[] buffer, int start, int end) {}
          });
      return scanner.keptInstructions();
    }
  }

  /**
   * The ids a raw trace's instruction lines start with, from its first instruction line (which
   * tells the tracer's generation); empty when the file has no instruction line. Reads up to that
   * line only.
   *
   * @throws IOException when the file cannot be read
   */
  public static java.util.Optional<RawIds> readRawIds(Path rawTrace) throws IOException {
    try (InputStream in = TraceFiles.openDecompressed(rawTrace)) {
      return java.util.Optional.ofNullable(RawTraceScanner.idsOfFirstInstruction(in, rawTrace));
    }
  }

  /** Collects header lines into a {@link KernelHeader}. */
  static final class HeaderBuilder {
    private final Path file;
    private final Map<String, String> fields = new LinkedHashMap<>();
    private final Map<String, Long> lines = new LinkedHashMap<>();

    HeaderBuilder(Path file) {
      this.file = file;
    }

    /**
     * Adds one {@code -key = value} line (a line without {@code =} is kept with an empty value).
     */
    void add(String line, long lineNumber) {
      String text = line.substring(1);
      int equals = text.indexOf('=');
      String key = (equals < 0 ? text : text.substring(0, equals)).strip();
      String value = equals < 0 ? "" : text.substring(equals + 1).strip();
      fields.put(key, value);
      lines.put(key, lineNumber);
    }

    KernelHeader build(long lastLine) {
      return new KernelHeader(
          required("kernel name", lastLine),
          number("kernel id"),
          dims("grid dim", lastLine),
          dims("block dim", lastLine),
          number("shmem"),
          (int) bounded("nregs"),
          (int) bounded("binary version"),
          number("cuda stream id"),
          fields.getOrDefault("nvbit version", ""),
          (int) bounded("accelsim tracer version"),
          fields);
    }

    private String required(String key, long lastLine) {
      String value = fields.get(key);
      if (value == null) {
        throw new TraceFormatException(
            file,
            lastLine,
            "the header has no '-"
                + key
                + " = ...' line before this one; is this an Accel-Sim kernel trace?");
      }
      return value;
    }

    private Dim3 dims(String key, long lastLine) {
      String value = required(key, lastLine);
      try {
        return Dim3.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TraceFormatException(
            file, lines.get(key), "'-" + key + " = " + value + "' is not of the form (x,y,z)", e);
      }
    }

    private long number(String key) {
      String value = fields.get(key);
      if (value == null) {
        return 0;
      }
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new TraceFormatException(
            file, lines.get(key), "'-" + key + " = " + value + "' is not a whole number", e);
      }
    }

    private long bounded(String key) {
      long value = number(key);
      if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
        throw new TraceFormatException(
            file, lines.get(key), "'-" + key + " = " + value + "' is out of range");
      }
      return value;
    }
  }
}
