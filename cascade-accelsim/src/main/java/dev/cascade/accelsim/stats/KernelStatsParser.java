package dev.cascade.accelsim.stats;

import dev.cascade.accelsim.stats.KeyTable.Key;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Streaming parser of Accel-Sim (GPGPU-Sim) simulator output: feed it the log's bytes in chunks of
 * any size, split anywhere (inside a line or a UTF-8 character), and it tells its {@link
 * StatsListener} about build strings, memcpy commands, kernel launches, finished kernels with their
 * statistics, and how the log ended.
 *
 * <p>Memory stays constant whatever the log size: the parser keeps the current partial line (at
 * most {@code maxLineBytes}; the excess of a longer line is dropped), the current statistics block,
 * a bounded table of statistic keys and one instance counter per distinct kernel name. It never
 * fails on an unknown or malformed line: such lines are skipped.
 *
 * <p>A kernel's own cycles and instructions are the differences of {@code gpu_tot_sim_cycle} and
 * {@code gpu_tot_sim_insn} from the previous block, which is what Accel-Sim's {@code get_stats.py
 * -k -K} reports. A block starts at {@code kernel_name = ...} and ends at {@code
 * gpgpu_silicon_slowdown = ...}; a new {@code kernel_name}, a launch or memcpy line, an end line or
 * {@link #finish()} also ends an open block.
 *
 * <p>Not thread-safe: feed one parser from one thread at a time.
 *
 * <pre>{@code
 * KernelStatsParser parser = new KernelStatsParser(new StatsListener() {
 *   @Override public void onKernelFinished(KernelStats kernel) {
 *     System.out.println(kernel.name() + " " + kernel.cycles());
 *   }
 * });
 * parser.feed(chunk, 0, chunk.length);  // as often as output arrives
 * LogOutcome outcome = parser.finish();
 * }</pre>
 */
public final class KernelStatsParser {

  /** The default cap of one line's length: 1 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;

  /** Statistics beyond this many in one block are dropped (a real block has 1,200 to 1,600). */
  static final int MAX_BLOCK_ENTRIES = 1 << 16;

  static final String UNNAMED = "(unnamed)";

  private static final int MIN_LINE_BYTES = 256;
  private static final int READ_BUFFER_BYTES = 1 << 20;
  private static final int MAX_REASON_CHARS = 500;
  private static final int LAYOUT_CACHE = 8;

  private static final byte[] KERNEL_NAME = ascii("kernel_name");
  private static final byte[] LAUNCHING_KERNEL = ascii("launching kernel name:");
  private static final byte[] LAUNCHING_MEMCPY = ascii("launching memcpy command");
  private static final byte[] UID = ascii(" uid:");
  private static final byte[] GPGPU_SIM = ascii("GPGPU-Sim");
  private static final byte[] EXIT_DETECTED = ascii("GPGPU-Sim: *** exit detected");
  private static final byte[] BREAK_DUE = ascii("GPGPU-Sim: ** break due to reaching the maximum");
  private static final byte[] DEADLOCK = ascii("ERROR ** deadlock detected");
  private static final byte[] UNSUPPORTED_BINARY = ascii("unsupported binary version");
  private static final byte[] ACCEL_SIM = ascii("Accel-Sim");
  private static final byte[] STARS_GPGPU_SIM = ascii("*** GPGPU-Sim");
  private static final byte[] BUILD = ascii("[build");

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;

  /** 10^i for i in 0..22: every one is exact as a double. */
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double power = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = power;
      power *= 10;
    }
  }

  private final StatsListener listener;
  private final int maxLineBytes;
  private final KeyTable keys = new KeyTable();
  private final Key gpuSimCycle;
  private final Key gpuSimInsn;
  private final Key gpuTotSimCycle;
  private final Key gpuTotSimInsn;
  private final Key kernelLaunchUid;
  private final Key siliconSlowdown;

  // The current partial line.
  private byte[] pending = new byte[MIN_LINE_BYTES];
  private int pendingLength;

  // The current statistics block.
  private boolean inBlock;
  private String blockName;
  private int generation;
  private Key[] blockKeys = new Key[256];
  private long[] blockValues = new long[256];
  private long[] blockDecimals = new long[4];
  private int blockCount;
  private long blockTotalCycles;
  private long blockTotalInsn;
  private long blockSimCycles;
  private long blockSimInsn;
  private long blockUid;
  private final StatsLayout[] layouts = new StatsLayout[LAYOUT_CACHE];
  private int nextLayout;

  // Across blocks.
  private long previousTotalCycles;
  private long previousTotalInsn;
  private String launchedName;
  private long launchedUid;
  private final Map<String, Integer> instances = new HashMap<>();
  private int kernelsFinished;
  private LogOutcome outcome = LogOutcome.INCOMPLETE;
  private boolean finished;

  // The number last scanned by scanNumber.
  private boolean numberIsDecimal;
  private long numberLong;
  private double numberDouble;
  private int numberEnd;

  private byte[] fieldKey = new byte[128];

  /** A parser that reports to {@code listener}, with lines capped at 1 MiB. */
  public KernelStatsParser(StatsListener listener) {
    this(listener, DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * A parser that reports to {@code listener} and keeps at most {@code maxLineBytes} of any line
   * (at least 256).
   */
  public KernelStatsParser(StatsListener listener, int maxLineBytes) {
    this.listener = Objects.requireNonNull(listener, "listener");
    if (maxLineBytes < MIN_LINE_BYTES) {
      throw new IllegalArgumentException(
          "maxLineBytes must be at least " + MIN_LINE_BYTES + ": '" + maxLineBytes + "'");
    }
    this.maxLineBytes = maxLineBytes;
    gpuSimCycle = keys.intern("gpu_sim_cycle");
    gpuSimInsn = keys.intern("gpu_sim_insn");
    gpuTotSimCycle = keys.intern("gpu_tot_sim_cycle");
    gpuTotSimInsn = keys.intern("gpu_tot_sim_insn");
    kernelLaunchUid = keys.intern("kernel_launch_uid");
    siliconSlowdown = keys.intern("gpgpu_silicon_slowdown");
  }

  /**
   * Parses a whole file, streaming it through a 1 MiB buffer, and returns how it ended.
   *
   * @throws IOException when the file cannot be opened or read
   */
  public static LogOutcome parse(Path file, StatsListener listener) throws IOException {
    KernelStatsParser parser = new KernelStatsParser(listener);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      parser.feed(channel);
    }
    return parser.finish();
  }

  /**
   * Parses everything {@code in} yields until its end and returns how the log ended; does not close
   * {@code in}.
   */
  public static LogOutcome parse(InputStream in, StatsListener listener) throws IOException {
    KernelStatsParser parser = new KernelStatsParser(listener);
    byte[] buffer = new byte[READ_BUFFER_BYTES];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      parser.feed(buffer, 0, n);
    }
    return parser.finish();
  }

  /**
   * Feeds everything {@code channel} yields until its end, through a 1 MiB buffer; does not close
   * it and does not {@link #finish}. When reading fails, what was read before is fed already (and
   * its finished kernels reported), so {@code finish()} still tells how far the log got.
   *
   * @throws IOException when the channel cannot be read
   */
  public void feed(ReadableByteChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    while (channel.read(buffer) >= 0) {
      buffer.flip();
      feed(buffer);
      buffer.clear();
    }
  }

  /** Feeds all of {@code bytes}. */
  public void feed(byte[] bytes) {
    feed(bytes, 0, bytes.length);
  }

  /** Feeds the {@code buffer}'s remaining bytes and moves its position to its limit. */
  public void feed(ByteBuffer buffer) {
    if (buffer.hasArray()) {
      feed(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
      buffer.position(buffer.limit());
      return;
    }
    byte[] chunk = new byte[Math.min(buffer.remaining(), 1 << 16)];
    while (buffer.hasRemaining()) {
      int n = Math.min(chunk.length, buffer.remaining());
      buffer.get(chunk, 0, n);
      feed(chunk, 0, n);
    }
  }

  /**
   * Feeds {@code bytes[offset, offset + length)}: the next bytes of the log, split anywhere.
   *
   * @throws IllegalStateException after {@link #finish()}
   */
  public void feed(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (finished) {
      throw new IllegalStateException("feed after finish(): this parser's log has ended");
    }
    int end = offset + length;
    int start = offset;
    if (pendingLength > 0) {
      int newline = indexOf(bytes, start, end, (byte) '\n');
      if (newline < 0) {
        appendPending(bytes, start, end);
        return;
      }
      appendPending(bytes, start, newline);
      int n = pendingLength;
      pendingLength = 0;
      line(pending, 0, n);
      start = newline + 1;
    }
    while (start < end) {
      int newline = indexOf(bytes, start, end, (byte) '\n');
      if (newline < 0) {
        appendPending(bytes, start, end);
        return;
      }
      line(bytes, start, Math.min(newline, start + maxLineBytes));
      start = newline + 1;
    }
  }

  /**
   * Ends the log: parses a last line without a newline, closes an open statistics block, reports
   * {@link LogOutcome.State#INCOMPLETE} when no end line was seen, and returns the outcome. Calling
   * it again only returns the outcome.
   */
  public LogOutcome finish() {
    if (finished) {
      return outcome;
    }
    finished = true;
    if (pendingLength > 0) {
      int n = pendingLength;
      pendingLength = 0;
      line(pending, 0, n);
    }
    closeBlock();
    if (outcome.state() == LogOutcome.State.INCOMPLETE) {
      listener.onEnd(outcome);
    }
    return outcome;
  }

  /** How the log ended, as far as the lines seen so far tell. */
  public LogOutcome outcome() {
    return outcome;
  }

  /** The number of statistics blocks (finished kernels) reported so far. */
  public int kernelsFinished() {
    return kernelsFinished;
  }

  private void appendPending(byte[] bytes, int start, int end) {
    int n = Math.min(end - start, maxLineBytes - pendingLength);
    if (n <= 0) {
      return;
    }
    if (pendingLength + n > pending.length) {
      pending =
          Arrays.copyOf(
              pending, Math.min(maxLineBytes, Math.max(pendingLength + n, 2 * pending.length)));
    }
    System.arraycopy(bytes, start, pending, pendingLength, n);
    pendingLength += n;
  }

  // ---------------------------------------------------------------------------------------------
  // Lines

  private void line(byte[] b, int start, int end) {
    if (end > start && b[end - 1] == '\r') {
      end--;
    }
    int p = skipBlanks(b, start, end);
    if (p == end) {
      return;
    }
    switch (b[p]) {
      case 'k' -> {
        if (kernelNameLine(b, p, end)) {
          return;
        }
      }
      case 'l' -> {
        if (launchLine(b, p, end)) {
          return;
        }
      }
      case 'G' -> {
        if (simulatorLine(b, p, end)) {
          return;
        }
      }
      case 'E' -> {
        if (startsWith(b, p, end, DEADLOCK)) {
          closeBlock();
          advance(LogOutcome.State.FAILED, b, p, end);
          return;
        }
      }
      case 'u' -> {
        if (startsWith(b, p, end, UNSUPPORTED_BINARY)) {
          closeBlock();
          advance(LogOutcome.State.FAILED, b, p, end);
          return;
        }
      }
      case 'A' -> {
        if (!inBlock
            && startsWith(b, p, end, ACCEL_SIM)
            && buildLine(BuildString.Component.ACCEL_SIM, b, p, end)) {
          return;
        }
      }
      case '*' -> {
        if (!inBlock
            && startsWith(b, p, end, STARS_GPGPU_SIM)
            && buildLine(BuildString.Component.GPGPU_SIM, b, p, end)) {
          return;
        }
      }
      default -> {}
    }
    if (inBlock) {
      statLine(b, p, end);
    }
  }

  /** {@code kernel_name = NAME}: a statistics block starts. */
  private boolean kernelNameLine(byte[] b, int p, int end) {
    if (!startsWith(b, p, end, KERNEL_NAME)) {
      return false;
    }
    int q = skipBlanks(b, p + KERNEL_NAME.length, end);
    if (q == end || b[q] != '=') {
      return false;
    }
    closeBlock();
    String name = decodeTrimmed(b, q + 1, end);
    inBlock = true;
    blockName = name.isEmpty() ? UNNAMED : name;
    blockCount = 0;
    generation++;
    keys.startBlock();
    blockTotalCycles = -1;
    blockTotalInsn = -1;
    blockSimCycles = -1;
    blockSimInsn = -1;
    blockUid = -1;
    return true;
  }

  /** {@code launching kernel name: ...} or {@code launching memcpy command : ...}. */
  private boolean launchLine(byte[] b, int p, int end) {
    if (startsWith(b, p, end, LAUNCHING_KERNEL)) {
      closeBlock();
      int s = p + LAUNCHING_KERNEL.length;
      int uidAt = lastIndexOf(b, s, end, UID);
      String name = decodeTrimmed(b, s, uidAt < 0 ? end : uidAt);
      long uid = uidAt < 0 ? 0 : digits(b, skipBlanks(b, uidAt + UID.length, end), end);
      launchedName = name.isEmpty() ? UNNAMED : name;
      launchedUid = uid;
      listener.onKernelLaunched(launchedName, uid);
      return true;
    }
    if (startsWith(b, p, end, LAUNCHING_MEMCPY)) {
      closeBlock();
      int s = skipBlanks(b, p + LAUNCHING_MEMCPY.length, end);
      if (s < end && b[s] == ':') {
        memcpy(b, skipBlanks(b, s + 1, end), end);
      }
      return true;
    }
    return false;
  }

  /** {@code MemcpyHtoD,0x00007f73bee00000,4000}; skipped when malformed. */
  private void memcpy(byte[] b, int start, int end) {
    int firstComma = indexOf(b, start, end, (byte) ',');
    if (firstComma < 0) {
      return;
    }
    int secondComma = indexOf(b, firstComma + 1, end, (byte) ',');
    if (secondComma < 0) {
      return;
    }
    String kind = decodeTrimmed(b, start, firstComma);
    String address = decodeTrimmed(b, firstComma + 1, secondComma);
    String bytes = decodeTrimmed(b, secondComma + 1, end);
    if (address.startsWith("0x") || address.startsWith("0X")) {
      address = address.substring(2);
    }
    try {
      long parsedAddress = Long.parseUnsignedLong(address, 16);
      long parsedBytes = Long.parseLong(bytes);
      if (parsedBytes >= 0) {
        listener.onMemcpy(new MemcpyCommand(kind, parsedAddress, parsedBytes));
      }
    } catch (NumberFormatException malformed) {
      // not a memcpy line we understand: skipped, like any other unknown line
    }
  }

  /** Lines starting with {@code GPGPU-Sim}: exit, limit and deadlock. */
  private boolean simulatorLine(byte[] b, int p, int end) {
    if (!startsWith(b, p, end, GPGPU_SIM)) {
      return false;
    }
    if (startsWith(b, p, end, EXIT_DETECTED)) {
      closeBlock();
      if (outcome.state().compareTo(LogOutcome.State.COMPLETE) < 0) {
        outcome = LogOutcome.COMPLETE;
        listener.onEnd(outcome);
      }
      return true;
    }
    if (startsWith(b, p, end, BREAK_DUE)) {
      closeBlock();
      advance(LogOutcome.State.NOT_FINAL, b, p, end);
      return true;
    }
    if (indexOf(b, p, end, DEADLOCK) >= 0) {
      closeBlock();
      advance(LogOutcome.State.FAILED, b, p, end);
      return true;
    }
    return false;
  }

  private void advance(LogOutcome.State state, byte[] b, int start, int end) {
    if (outcome.state().compareTo(state) < 0) {
      String reason = decodeTrimmed(b, start, end);
      if (reason.length() > MAX_REASON_CHARS) {
        reason = reason.substring(0, MAX_REASON_CHARS) + "...";
      }
      outcome = new LogOutcome(state, reason);
      listener.onEnd(outcome);
    }
  }

  /** {@code Accel-Sim [build X]} or {@code *** GPGPU-Sim Simulator Version V [build X] ***}. */
  private boolean buildLine(BuildString.Component component, byte[] b, int p, int end) {
    int at = indexOf(b, p, end, BUILD);
    if (at < 0) {
      return false;
    }
    int s = at + BUILD.length;
    int close = indexOf(b, s, end, (byte) ']');
    String build = decodeTrimmed(b, s, close < 0 ? end : close);
    listener.onBuild(new BuildString(component, build, decodeTrimmed(b, p, end)));
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Statistics

  /**
   * A line inside a block: {@code key = number[unit]}, or {@code prefix: a = 1, b = 2, ...}; any
   * other line is skipped.
   */
  private void statLine(byte[] b, int p, int end) {
    int equals = indexOf(b, p, end, (byte) '=');
    if (equals < 0) {
      return;
    }
    int keyEnd = trimRight(b, p, equals);
    if (keyEnd == p) {
      return;
    }
    Key key = keys.lookup(b, p, keyEnd, KeyTable.hash(b, p, keyEnd));
    if (key.colon >= 0) {
      fieldList(key, b, p, p + key.colon, end);
      return;
    }
    if (!key.plain) {
      return;
    }
    if (scanNumber(b, skipBlanks(b, equals + 1, end), end) && unitOnly(b, numberEnd, end)) {
      add(key);
    }
    if (key == siliconSlowdown) {
      closeBlock();
    }
  }

  /**
   * {@code L2_cache_bank[3]: Access = 12, Miss = 12, ...}: keys {@code L2_cache_bank[3].Access}.
   */
  private void fieldList(Key list, byte[] b, int p, int colon, int end) {
    int prefixLength = colon - p;
    int s = colon + 1;
    for (int position = 0; s < end; position++) {
      int comma = indexOf(b, s, end, (byte) ',');
      int segmentEnd = comma < 0 ? end : comma;
      field(list, position, b, p, prefixLength, s, segmentEnd);
      s = segmentEnd + 1;
    }
  }

  /** The field at {@code position} of a field list line. */
  private void field(
      Key list, int position, byte[] b, int prefix, int prefixLength, int start, int end) {
    int nameStart = skipBlanks(b, start, end);
    int equals = indexOf(b, nameStart, end, (byte) '=');
    if (equals < 0) {
      return;
    }
    int nameEnd = trimRight(b, nameStart, equals);
    if (nameEnd == nameStart) {
      return;
    }
    for (int i = nameStart; i < nameEnd; i++) {
      byte c = b[i];
      if (c == ' ' || c == '\t' || c == ':' || c == '(' || c == ')' || c == '"') {
        return;
      }
    }
    if (!scanNumber(b, skipBlanks(b, equals + 1, end), end)
        || trimRight(b, numberEnd, end) != numberEnd) {
      return;
    }
    Key cached = list.field(position, b, nameStart, nameEnd);
    if (cached != null) {
      add(cached);
      return;
    }
    int length = prefixLength + 1 + nameEnd - nameStart;
    if (fieldKey.length < length) {
      fieldKey = new byte[Math.max(length, 2 * fieldKey.length)];
    }
    System.arraycopy(b, prefix, fieldKey, 0, prefixLength);
    fieldKey[prefixLength] = '.';
    System.arraycopy(b, nameStart, fieldKey, prefixLength + 1, nameEnd - nameStart);
    Key key = keys.lookup(fieldKey, 0, length, KeyTable.hash(fieldKey, 0, length));
    list.rememberField(position, b, nameStart, nameEnd, key);
    add(key);
  }

  /** Adds the number last scanned under {@code key}, or {@code key#n} for its n-th repeat. */
  private void add(Key key) {
    if (blockCount == MAX_BLOCK_ENTRIES) {
      return;
    }
    Key k = key;
    if (key.generation != generation) {
      key.generation = generation;
      key.occurrences = 1;
    } else {
      int n = key.occurrences;
      do {
        k = keys.repeat(key, ++n);
      } while (k.generation == generation);
      key.occurrences = n;
      k.generation = generation;
      k.occurrences = 1;
    }
    if (blockCount == blockKeys.length) {
      blockKeys = Arrays.copyOf(blockKeys, blockCount * 2);
      blockValues = Arrays.copyOf(blockValues, blockCount * 2);
      blockDecimals = Arrays.copyOf(blockDecimals, blockCount * 2 / 64);
    }
    int i = blockCount++;
    blockKeys[i] = k;
    long bit = 1L << i;
    if (numberIsDecimal) {
      blockValues[i] = Double.doubleToRawLongBits(numberDouble);
      blockDecimals[i >>> 6] |= bit;
    } else {
      blockValues[i] = numberLong;
      blockDecimals[i >>> 6] &= ~bit;
    }
    if (k == gpuTotSimCycle) {
      blockTotalCycles = wholeNumber();
    } else if (k == gpuTotSimInsn) {
      blockTotalInsn = wholeNumber();
    } else if (k == gpuSimCycle) {
      blockSimCycles = wholeNumber();
    } else if (k == gpuSimInsn) {
      blockSimInsn = wholeNumber();
    } else if (k == kernelLaunchUid) {
      blockUid = wholeNumber();
    }
  }

  /** The number last scanned as a count, or -1 when it is negative. */
  private long wholeNumber() {
    long value = numberIsDecimal ? (long) numberDouble : numberLong;
    return value < 0 ? -1 : value;
  }

  /** Ends the open block, if any, and reports the kernel. */
  private void closeBlock() {
    if (!inBlock) {
      return;
    }
    inBlock = false;
    long cycles;
    if (blockTotalCycles >= 0) {
      cycles =
          blockTotalCycles >= previousTotalCycles
              ? blockTotalCycles - previousTotalCycles
              : blockTotalCycles; // the totals went back: a new simulation started
      previousTotalCycles = blockTotalCycles;
    } else {
      cycles = Math.max(0, blockSimCycles);
      previousTotalCycles += cycles;
    }
    long insn;
    if (blockTotalInsn >= 0) {
      insn =
          blockTotalInsn >= previousTotalInsn ? blockTotalInsn - previousTotalInsn : blockTotalInsn;
      previousTotalInsn = blockTotalInsn;
    } else {
      insn = Math.max(0, blockSimInsn);
      previousTotalInsn += insn;
    }
    double ipc = cycles == 0 ? 0 : (double) insn / cycles;
    long uid = blockUid >= 0 ? blockUid : blockName.equals(launchedName) ? launchedUid : 0;
    int instance = instances.merge(blockName, 1, Integer::sum) - 1;
    BlockStats stats =
        new BlockStats(
            layout(),
            Arrays.copyOf(blockValues, blockCount),
            Arrays.copyOf(blockDecimals, (blockCount + 63) >>> 6));
    kernelsFinished++;
    listener.onKernelFinished(new KernelStats(blockName, uid, instance, cycles, insn, ipc, stats));
  }

  /** The layout of the current block's keys, shared with earlier blocks that had the same keys. */
  private StatsLayout layout() {
    for (int i = 0; i < LAYOUT_CACHE; i++) {
      StatsLayout candidate = layouts[(nextLayout - 1 - i + LAYOUT_CACHE) % LAYOUT_CACHE];
      if (candidate != null && candidate.matches(blockKeys, blockCount)) {
        return candidate;
      }
    }
    String[] names = new String[blockCount];
    for (int i = 0; i < blockCount; i++) {
      names[i] = blockKeys[i].name;
    }
    StatsLayout created = new StatsLayout(names);
    layouts[nextLayout] = created;
    nextLayout = (nextLayout + 1) % LAYOUT_CACHE;
    return created;
  }

  // ---------------------------------------------------------------------------------------------
  // Numbers

  /**
   * Scans a decimal number at {@code b[start]}: an optional sign, digits with an optional fraction
   * and exponent. Sets {@code number*} and returns true, or returns false when there is none (or it
   * is not finite, such as {@code -nan}).
   */
  private boolean scanNumber(byte[] b, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (b[i] == '-' || b[i] == '+')) {
      negative = b[i] == '-';
      i++;
    }
    long mantissa = 0;
    int significant = 0;
    int digits = 0;
    for (; i < end; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        break;
      }
      digits++;
      if (mantissa != 0 || d != 0) {
        if (++significant <= 18) {
          mantissa = mantissa * 10 + d;
        }
      }
    }
    boolean decimal = false;
    int fraction = 0;
    if (i < end && b[i] == '.') {
      decimal = true;
      for (i++; i < end; i++) {
        int d = b[i] - '0';
        if (d < 0 || d > 9) {
          break;
        }
        digits++;
        fraction++;
        if (mantissa != 0 || d != 0) {
          if (++significant <= 18) {
            mantissa = mantissa * 10 + d;
          }
        }
      }
    }
    if (digits == 0) {
      return false;
    }
    boolean exponent = false;
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      int j = i + 1;
      if (j < end && (b[j] == '-' || b[j] == '+')) {
        j++;
      }
      if (j < end && b[j] >= '0' && b[j] <= '9') {
        exponent = true;
        decimal = true;
        while (j < end && b[j] >= '0' && b[j] <= '9') {
          j++;
        }
        i = j;
      }
    }
    numberEnd = i;
    if (!decimal && significant <= 18) {
      numberIsDecimal = false;
      numberLong = negative ? -mantissa : mantissa;
      return true;
    }
    numberIsDecimal = true;
    if (!exponent && significant <= 15 && fraction < POWERS_OF_TEN.length) {
      // Both operands are exact doubles, so the quotient is correctly rounded.
      double value = mantissa / POWERS_OF_TEN[fraction];
      numberDouble = negative ? -value : value;
      return true;
    }
    try {
      numberDouble = Double.parseDouble(new String(b, start, i - start, StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      return false;
    }
    return Double.isFinite(numberDouble);
  }

  /**
   * True when what follows a number is only a unit: nothing, or a blank, {@code %}, {@code !} or a
   * letter, and no further digit before an optional trailing {@code {...}} histogram. So {@code
   * 12.5%}, {@code 3.7 GB/Sec}, {@code 9118 (cycle/sec)} and {@code 124150x} count, while {@code
   * 750/32 = 23.4} and {@code 0 days, 0 hrs, ...} do not.
   */
  private static boolean unitOnly(byte[] b, int start, int end) {
    if (start == end) {
      return true;
    }
    byte c = b[start];
    if (!(c == ' '
        || c == '\t'
        || c == '%'
        || c == '!'
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z'))) {
      return false;
    }
    for (int i = start; i < end; i++) {
      c = b[i];
      if (c == '{') {
        return true;
      }
      if (c >= '0' && c <= '9') {
        return false;
      }
    }
    return true;
  }

  /** The unsigned decimal at {@code b[start]}, 0 when there is none. */
  private static long digits(byte[] b, int start, int end) {
    long value = 0;
    for (int i = start; i < end && i - start < 18; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        break;
      }
      value = value * 10 + d;
    }
    return value;
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static int skipBlanks(byte[] b, int start, int end) {
    while (start < end && (b[start] == ' ' || b[start] == '\t')) {
      start++;
    }
    return start;
  }

  private static int trimRight(byte[] b, int start, int end) {
    while (end > start && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
      end--;
    }
    return end;
  }

  private static String decodeTrimmed(byte[] b, int start, int end) {
    int s = skipBlanks(b, start, end);
    int e = trimRight(b, s, end);
    return new String(b, s, e - s, StandardCharsets.UTF_8);
  }

  private static boolean startsWith(byte[] b, int start, int end, byte[] prefix) {
    return end - start >= prefix.length
        && Arrays.equals(b, start, start + prefix.length, prefix, 0, prefix.length);
  }

  /** The first {@code target} in {@code b[start, end)}, or -1; looks at eight bytes at a time. */
  static int indexOf(byte[] b, int start, int end, byte target) {
    long pattern = ONES * (target & 0xFF);
    int i = start;
    for (int last = end - Long.BYTES; i <= last; i += Long.BYTES) {
      long word = (long) LONGS.get(b, i) ^ pattern; // a zero byte where b has target
      long zeros = (word - ONES) & ~word & HIGH_BITS; // the lowest flag marks the first zero
      if (zeros != 0) {
        return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
      }
    }
    if (i < end && end >= Long.BYTES) {
      // The last 1 to 7 bytes: one word ending at end, ignoring the bytes before i.
      // (Exact per byte: a target before i must not flag the byte after it.)
      int from = end - Long.BYTES;
      long word = (long) LONGS.get(b, from) ^ pattern;
      long zeros = ~(((word & LOW_BITS) + LOW_BITS) | word | LOW_BITS) & (-1L << ((i - from) << 3));
      return zeros == 0 ? -1 : from + (Long.numberOfTrailingZeros(zeros) >>> 3);
    }
    for (; i < end; i++) {
      if (b[i] == target) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOf(byte[] b, int start, int end, byte[] target) {
    byte first = target[0];
    for (int i = start, last = end - target.length; i <= last; i++) {
      if (b[i] == first && Arrays.equals(b, i, i + target.length, target, 0, target.length)) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexOf(byte[] b, int start, int end, byte[] target) {
    byte first = target[0];
    for (int i = end - target.length; i >= start; i--) {
      if (b[i] == first && Arrays.equals(b, i, i + target.length, target, 0, target.length)) {
        return i;
      }
    }
    return -1;
  }
}
