package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * Reads a raw {@code kernel-N.trace} as Accel-Sim's post-processor does and hands each line to a
 * {@link Handler}: empty, {@code #} and {@code -} lines to {@link Handler#echo}, instruction lines
 * (minus their first four fields) to {@link Handler#instruction} with their thread block's linear
 * id and warp. It applies the LDGSTS rule: per thread block and warp, the 1st, 3rd, 5th... lines
 * whose opcode contains {@code LDGSTS} are dropped (they are the shared-memory half of an
 * instruction the tracer writes twice); as in the C++ tool, a {@code -} line among the instructions
 * restarts that count.
 *
 * <p>Parsing follows the C++ tool's {@code istream} reads, so any input it handles gives the same
 * result; input it would misread (an instruction outside the grid, a warp past the block, an
 * instruction before the grid and block dims) is rejected with the file and line.
 */
final class RawTraceScanner {

  /**
   * Receives the lines of a raw trace. A line is {@code buffer[start, end)}, valid during the call.
   */
  interface Handler {
    void echo(byte[] buffer, int start, int end) throws IOException;

    void instruction(int block, int warp, byte[] buffer, int start, int end) throws IOException;
  }

  static final int MAX_LINE_LENGTH = 64 << 20;
  private static final long UNSIGNED_MAX = 0xFFFF_FFFFL;
  private static final byte[] LDGSTS = "LDGSTS".getBytes(StandardCharsets.US_ASCII);

  private final Path source;
  private Dim3 grid;
  private Dim3 block;
  private boolean started;
  private int warpsPerBlock;
  private final BitSet seenBlocks = new BitSet();
  private final BitSet keepNextLdgsts = new BitSet();
  private long instructions;
  private long droppedLdgsts;
  private final long[] prefix = new long[4];

  /**
   * @param source named in error messages
   */
  RawTraceScanner(Path source) {
    this.source = source;
  }

  void scan(InputStream in, Handler handler) throws IOException {
    LineReader lines = new LineReader(in, source, 1 << 20, MAX_LINE_LENGTH);
    while (lines.next()) {
      byte[] b = lines.buffer();
      int s = lines.start();
      int e = lines.end();
      if (s == e || b[s] == '#') {
        handler.echo(b, s, e);
      } else if (b[s] == '-') {
        header(lines);
        handler.echo(b, s, e);
      } else {
        instruction(lines, handler);
      }
    }
  }

  /** The grid, once an instruction line was seen; null before. */
  Dim3 grid() {
    return grid;
  }

  /** Warps per thread block, {@code ceil(threads / 32)}; 0 before the first instruction. */
  int warpsPerBlock() {
    return warpsPerBlock;
  }

  /** Linear ids of the thread blocks that had at least one instruction line (dropped or not). */
  BitSet seenBlocks() {
    return seenBlocks;
  }

  /** Instruction lines handed to the handler. */
  long instructions() {
    return instructions;
  }

  /** LDGSTS lines dropped. */
  long droppedLdgsts() {
    return droppedLdgsts;
  }

  /** Coordinates {@code x,y,z} of the thread block with linear id {@code id}, as "x,y,z". */
  String coordinates(int id) {
    long perLayer = (long) grid.x() * grid.y();
    long z = id / perLayer;
    long rest = id % perLayer;
    return (rest % grid.x()) + "," + (rest / grid.x()) + "," + z;
  }

  private void header(LineReader lines) {
    if (grid != null && block != null) {
      // The C++ tool re-initialises every LDGSTS flag on each header line once both dims are
      // known, so a header line among the instructions restarts the pairing.
      keepNextLdgsts.clear();
    }
    // The C++ tool: ss.ignore(); ss >> string1 >> string2; then sscanf for the two dims.
    byte[] b = lines.buffer();
    int e = lines.end();
    int p = skipSpace(b, lines.start() + 1, e);
    int firstStart = p;
    p = skipToken(b, p, e);
    int firstEnd = p;
    p = skipSpace(b, p, e);
    int secondStart = p;
    int secondEnd = skipToken(b, p, e);
    if (!isToken(b, secondStart, secondEnd, "dim")) {
      return;
    }
    boolean isGrid = isToken(b, firstStart, firstEnd, "grid");
    boolean isBlock = isToken(b, firstStart, firstEnd, "block");
    if (!isGrid && !isBlock) {
      return;
    }
    String text = lines.text();
    Dim3 dims;
    try {
      dims = Dim3.parse(text.substring(text.indexOf('=') + 1));
    } catch (IllegalArgumentException ex) {
      throw new TraceFormatException(
          source, lines.lineNumber(), "'" + text + "' is not '-grid dim = (x,y,z)' or similar", ex);
    }
    Dim3 previous = isGrid ? grid : block;
    if (started && !dims.equals(previous)) {
      throw new TraceFormatException(
          source,
          lines.lineNumber(),
          "'" + text + "' changes the dims after instructions began; a trace has one grid");
    }
    if (isGrid) {
      grid = dims;
    } else {
      block = dims;
    }
  }

  private void instruction(LineReader lines, Handler handler) throws IOException {
    if (!started) {
      start(lines.lineNumber());
    }
    byte[] b = lines.buffer();
    int e = lines.end();
    int p = lines.start();
    for (int i = 0; i < 4; i++) {
      p = skipSpace(b, p, e);
      int digitsStart = p;
      long value = 0;
      while (p < e && b[p] >= '0' && b[p] <= '9') {
        value = value * 10 + (b[p] - '0');
        if (value > UNSIGNED_MAX) {
          throw malformed(lines, "a number is above 4294967295");
        }
        p++;
      }
      if (p == digitsStart) {
        throw malformed(lines, "it does not start with four numbers (ctaX ctaY ctaZ warp)");
      }
      prefix[i] = value;
    }
    if (p >= e) {
      throw malformed(lines, "nothing follows the thread block and warp numbers");
    }
    long x = prefix[0];
    long y = prefix[1];
    long z = prefix[2];
    long warp = prefix[3];
    if (x >= grid.x() || y >= grid.y() || z >= grid.z()) {
      throw new TraceFormatException(
          source,
          lines.lineNumber(),
          "thread block ("
              + x
              + ","
              + y
              + ","
              + z
              + ") is outside the grid "
              + grid
              + " of the '-grid dim' header");
    }
    if (warp >= warpsPerBlock) {
      throw new TraceFormatException(
          source,
          lines.lineNumber(),
          "warp "
              + warp
              + " is past the "
              + warpsPerBlock
              + " warps of a "
              + block
              + " thread block ('-block dim' header)");
    }
    int id = (int) ((z * grid.y() + y) * grid.x() + x);
    int w = (int) warp;
    int rest = p + 1; // the C++ tool skips one character after the warp number
    seenBlocks.set(id);
    if (opcodeContainsLdgsts(b, rest, e)) {
      int flag = id * warpsPerBlock + w;
      boolean keep = keepNextLdgsts.get(flag);
      keepNextLdgsts.flip(flag);
      if (!keep) {
        droppedLdgsts++;
        return;
      }
    }
    instructions++;
    handler.instruction(id, w, b, rest, e);
  }

  private void start(long lineNumber) {
    if (grid == null || block == null) {
      throw new TraceFormatException(
          source,
          lineNumber,
          "an instruction line comes before the '-grid dim' and '-block dim' header lines;"
              + " is this a raw Accel-Sim trace?");
    }
    long threadBlocks = grid.count();
    long threads = block.count();
    long warps = threads / 32 + (threads % 32 == 0 ? 0 : 1);
    if (threadBlocks > Integer.MAX_VALUE
        || warps > Integer.MAX_VALUE
        || threadBlocks * Math.max(1, warps) > Integer.MAX_VALUE) {
      throw new TraceFormatException(
          source,
          lineNumber,
          "a grid of "
              + grid
              + " thread blocks of "
              + block
              + " threads is too large to post-process (over 2^31 warps)");
    }
    warpsPerBlock = (int) warps;
    started = true;
  }

  private TraceFormatException malformed(LineReader lines, String why) {
    String text = lines.text();
    if (text.length() > 120) {
      text = text.substring(0, 117) + "...";
    }
    return new TraceFormatException(
        source, lines.lineNumber(), "instruction line '" + text + "' is malformed: " + why);
  }

  /**
   * The opcode test of the C++ tool on the text after the warp number: skip two words (PC, mask),
   * read the destination count as {@code unsigned}, skip that many words, and read the opcode. A
   * read that fails leaves the opcode empty.
   */
  static boolean opcodeContainsLdgsts(byte[] b, int p, int e) {
    for (int i = 0; i < 2; i++) {
      p = skipSpace(b, p, e);
      if (p == e) {
        return false;
      }
      p = skipToken(b, p, e);
    }
    p = skipSpace(b, p, e);
    if (p == e) {
      return false;
    }
    boolean negative = b[p] == '-';
    if (negative || b[p] == '+') {
      p++;
    }
    int digitsStart = p;
    long magnitude = 0;
    while (p < e && b[p] >= '0' && b[p] <= '9') {
      magnitude = Math.min(magnitude * 10 + (b[p] - '0'), UNSIGNED_MAX + 1);
      p++;
    }
    if (p == digitsStart || magnitude > UNSIGNED_MAX) {
      return false;
    }
    long destinations = negative ? (-magnitude) & UNSIGNED_MAX : magnitude;
    for (long i = 0; i < destinations; i++) {
      p = skipSpace(b, p, e);
      if (p == e) {
        return false;
      }
      p = skipToken(b, p, e);
    }
    p = skipSpace(b, p, e);
    int opcodeStart = p;
    int opcodeEnd = skipToken(b, p, e);
    return contains(b, opcodeStart, opcodeEnd, LDGSTS);
  }

  /** C's {@code isspace} in the "C" locale. */
  private static boolean isSpace(byte c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  private static int skipSpace(byte[] b, int p, int e) {
    while (p < e && isSpace(b[p])) {
      p++;
    }
    return p;
  }

  private static int skipToken(byte[] b, int p, int e) {
    while (p < e && !isSpace(b[p])) {
      p++;
    }
    return p;
  }

  private static boolean isToken(byte[] b, int start, int end, String word) {
    if (end - start != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (b[start + i] != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean contains(byte[] b, int start, int end, byte[] needle) {
    outer:
    for (int i = start; i <= end - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (b[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
