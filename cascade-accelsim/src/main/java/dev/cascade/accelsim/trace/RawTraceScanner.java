package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads a raw {@code kernel-N.trace} as Accel-Sim's post-processor does and hands each line to a
 * {@link Handler}: empty, {@code #} and {@code -} lines to {@link Handler#echo}, instruction lines
 * (minus their leading ids) to {@link Handler#instruction} with their thread block's linear id and
 * warp.
 *
 * <p>Two generations of the tracer are told apart by the first instruction line itself ({@link
 * RawIds}): 4 leading ids (the tracer before Accel-Sim 2.0, read as the 2024 post-processor reads
 * them) or 11 (Accel-Sim 2.0: the cluster ids follow the warp, read as the newest post-processor
 * reads them). The generation decides the rules:
 *
 * <ul>
 *   <li>LDGSTS: per thread block and warp, the 1st, 3rd, 5th... lines whose opcode contains (4 ids)
 *       or starts with (11 ids, so {@code ARRIVES.LDGSTSBAR} is kept) {@code LDGSTS} are dropped
 *       (the shared-memory half of an instruction the tracer writes twice); as in the C++ tools, a
 *       {@code -} line among the instructions restarts that count.
 *   <li>End of input: with 4 ids the text after the last newline is a line even when empty (the
 *       2024 tool's {@code getline} loop echoes it); with 11 ids it is not (the newest tool reads
 *       with {@code fgets}).
 *   <li>TRYWAITs (11 ids): {@code SYNCS.PHASECHK...TRYWAIT} lines on an mbarrier that no kept line
 *       of the kernel arrives on ({@code SYNCS.ARRIVE*}, {@code ARRIVES.LDGSTSBAR*}, or a {@code
 *       UTMALDG}'s mbarrier) are dropped. The scanner only records them ({@link
 *       #droppedTrywaitAddresses()}, {@link #trywaitsOn}): which ones go is known at the end.
 * </ul>
 *
 * <p>Parsing follows the C++ tools' {@code istream} reads, so any input they handle gives the same
 * result; input they would misread (an instruction outside the grid, a warp past the block, an
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

  /** Leading decimal fields from which a line is taken to carry 11 ids (4 ids give at most 8). */
  private static final int ELEVEN_IDS_FROM = 11;

  private final Path source;
  private Dim3 grid;
  private Dim3 block;
  private boolean started;
  private int warpsPerBlock;
  private final BitSet seenBlocks = new BitSet();
  private final BitSet keepNextLdgsts = new BitSet();
  private long instructions;
  private long droppedLdgsts;
  private final long[] prefix = new long[11];
  private RawIds ids;
  private boolean lineInfo;

  /** Per thread block (11 ids), its cluster id, cluster cta and rank as first seen: 7 values. */
  private final Map<Integer, int[]> clusters = new HashMap<>();

  /** mbarrier addresses (lower 32 bits) some kept line arrives on. */
  private final Set<Integer> arrived = new HashSet<>();

  /** Per mbarrier address, per warp ({@code block * warpsPerBlock + warp}), kept TRYWAIT lines. */
  private final Map<Integer, Map<Long, Long>> trywaits = new HashMap<>();

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
      if (s == e && !lines.terminated() && ids == RawIds.ELEVEN) {
        // The newest tool reads lines with fgets: nothing after the last newline is no line.
        continue;
      }
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

  /**
   * The instruction lines the post-processor writes: those handed to the handler, less the TRYWAITs
   * dropped (known once the whole kernel was read).
   */
  long keptInstructions() {
    long dropped = 0;
    for (int address : droppedTrywaitAddresses()) {
      for (long count : trywaits.get(address).values()) {
        dropped += count;
      }
    }
    return instructions - dropped;
  }

  /** Whether the header said {@code -enable lineinfo = } a number other than 0. */
  boolean lineInfo() {
    return lineInfo;
  }

  /** The ids each instruction line starts with; null before the first instruction line. */
  RawIds ids() {
    return ids;
  }

  /**
   * The mbarrier addresses whose TRYWAIT lines the newest post-processor drops: waited on, never
   * arrived on. Empty for 4 ids (the 2024 tool drops none). Valid once the whole kernel was read.
   */
  Set<Integer> droppedTrywaitAddresses() {
    Set<Integer> dropped = new HashSet<>(trywaits.keySet());
    dropped.removeAll(arrived);
    return dropped;
  }

  /** Kept TRYWAIT lines of warp {@code warp} of block {@code block} on {@code address}. */
  long trywaitsOn(int address, int block, int warp) {
    Map<Long, Long> perWarp = trywaits.get(address);
    return perWarp == null ? 0 : perWarp.getOrDefault((long) block * warpsPerBlock + warp, 0L);
  }

  /**
   * The cluster lines of a thread block (11 ids), as the newest tool writes them after {@code
   * thread block = x,y,z}: {@code cluster id = x,y,z}, {@code cluster cta = x,y,z}, {@code cluster
   * rank = r}, each ending in a newline; empty for 4 ids.
   */
  String clusterLines(int block) {
    int[] c = clusters.get(block);
    if (c == null) {
      return "";
    }
    return "cluster id = "
        + unsigned(c[0])
        + ","
        + unsigned(c[1])
        + ","
        + unsigned(c[2])
        + "\ncluster cta = "
        + unsigned(c[3])
        + ","
        + unsigned(c[4])
        + ","
        + unsigned(c[5])
        + "\ncluster rank = "
        + unsigned(c[6])
        + "\n";
  }

  private static String unsigned(int value) {
    return Integer.toUnsignedString(value);
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
    if (isToken(b, firstStart, firstEnd, "enable")
        && isToken(b, secondStart, secondEnd, "lineinfo")) {
      // "-enable lineinfo = N": the newest tool's mbarrier scan then skips a line number first.
      lineInfo = leadingInt(lines.text()) != 0;
      return;
    }
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
    if (ids == null) {
      ids = leadingNumbers(b, lines.start(), e) >= ELEVEN_IDS_FROM ? RawIds.ELEVEN : RawIds.FOUR;
    }
    int count = ids.count();
    int p = lines.start();
    for (int i = 0; i < count; i++) {
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
        throw malformed(
            lines,
            ids == RawIds.FOUR
                ? "it does not start with four numbers (ctaX ctaY ctaZ warp)"
                : "it does not start with the eleven numbers of the trace's first instruction"
                    + " line (ctaX ctaY ctaZ warp, cluster x y z, cta in cluster x y z, rank)");
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
    int rest = p + 1; // the C++ tools skip one character after the last id
    if (!seenBlocks.get(id)) {
      seenBlocks.set(id);
      if (ids == RawIds.ELEVEN) {
        int[] cluster = new int[7];
        for (int i = 0; i < 7; i++) {
          cluster[i] = (int) prefix[4 + i];
        }
        clusters.put(id, cluster);
      }
    }
    if (opcodeHasLdgsts(b, rest, e, ids == RawIds.ELEVEN)) {
      int flag = id * warpsPerBlock + w;
      boolean keep = keepNextLdgsts.get(flag);
      keepNextLdgsts.flip(flag);
      if (!keep) {
        droppedLdgsts++;
        return;
      }
    }
    if (ids == RawIds.ELEVEN) {
      noteMbarrier(b, rest, e, id, w);
    }
    instructions++;
    handler.instruction(id, w, b, rest, e);
  }

  private void noteMbarrier(byte[] b, int start, int end, int block, int warp) {
    MbarrierUse use = MbarrierUse.of(b, start, end, lineInfo);
    if (use == null || use.address() == 0) {
      return;
    }
    if (use.arrives()) {
      arrived.add(use.address());
    } else {
      trywaits
          .computeIfAbsent(use.address(), a -> new HashMap<>())
          .merge((long) block * warpsPerBlock + warp, 1L, Long::sum);
    }
  }

  /** The ids of the first instruction line of {@code in}; null when it has none. */
  static RawIds idsOfFirstInstruction(InputStream in, Path source) throws IOException {
    LineReader lines = new LineReader(in, source, 1 << 16, MAX_LINE_LENGTH);
    while (lines.next()) {
      byte[] b = lines.buffer();
      int s = lines.start();
      int e = lines.end();
      if (s != e && b[s] != '#' && b[s] != '-') {
        return leadingNumbers(b, s, e) >= ELEVEN_IDS_FROM ? RawIds.ELEVEN : RawIds.FOUR;
      }
    }
    return null;
  }

  /** How many whitespace-separated fields at the start of {@code b[p, e)} are all digits. */
  private static int leadingNumbers(byte[] b, int p, int e) {
    int count = 0;
    while (true) {
      p = skipSpace(b, p, e);
      int fieldStart = p;
      while (p < e && b[p] >= '0' && b[p] <= '9') {
        p++;
      }
      if (p == fieldStart || (p < e && !isSpace(b[p]))) {
        return count;
      }
      count++;
    }
  }

  /** C's {@code sscanf("%d")} after the {@code =}: the leading integer, 0 when there is none. */
  private static int leadingInt(String text) {
    int equals = text.indexOf('=');
    String value = equals < 0 ? "" : text.substring(equals + 1).strip();
    int end = 0;
    while (end < value.length()
        && (Character.isDigit(value.charAt(end)) || (end == 0 && value.charAt(0) == '-'))) {
      end++;
    }
    try {
      return Integer.parseInt(value.substring(0, end));
    } catch (NumberFormatException e) {
      return 0;
    }
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
   * The opcode test of the C++ tools on the text after the ids: skip two words (PC, mask), read the
   * destination count as {@code unsigned}, skip that many words, and read the opcode; it is an
   * LDGSTS when the opcode contains {@code LDGSTS} (the 2024 tool) or starts with it ({@code
   * prefixOnly}, the newest tool). A read that fails leaves the opcode empty.
   */
  static boolean opcodeHasLdgsts(byte[] b, int p, int e, boolean prefixOnly) {
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
    if (prefixOnly) {
      return opcodeEnd - opcodeStart >= LDGSTS.length
          && contains(b, opcodeStart, opcodeStart + LDGSTS.length, LDGSTS);
    }
    return contains(b, opcodeStart, opcodeEnd, LDGSTS);
  }

  /** C's {@code isspace} in the "C" locale. */
  static boolean isSpace(byte c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  static int skipSpace(byte[] b, int p, int e) {
    while (p < e && isSpace(b[p])) {
      p++;
    }
    return p;
  }

  static int skipToken(byte[] b, int p, int e) {
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
