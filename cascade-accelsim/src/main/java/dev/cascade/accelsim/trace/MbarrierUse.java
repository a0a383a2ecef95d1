package dev.cascade.accelsim.trace;

/**
 * What an instruction line does to an mbarrier, as the newest post-processor classifies it to drop
 * TRYWAITs nothing arrives on: it arrives on one ({@code SYNCS.ARRIVE*}, {@code
 * ARRIVES.LDGSTSBAR*}, or a {@code UTMALDG}, whose TMA mbarrier follows its memory width), or it
 * waits on one (an opcode with both {@code PHASECHK} and {@code TRYWAIT}).
 *
 * <p>The line is the text after the ids: {@code [line] pc mask ndst [dsts] opcode nsrc [srcs] width
 * [mode address ...]}. The address is the first one listed, for address modes 0, 1 and 2 (list,
 * base and stride, base and deltas), and only its lower 32 bits count, as upstream.
 *
 * @param arrives true for an arrive, false for a TRYWAIT
 * @param address the mbarrier's address, lower 32 bits
 */
record MbarrierUse(boolean arrives, int address) {

  /**
   * The line's use of an mbarrier; null when it has none, or when a field the tool reads is not
   * there or not a number (the tool's stream fails and it counts the line as unrelated).
   */
  static MbarrierUse of(byte[] b, int start, int end, boolean lineInfo) {
    if (!mentionsAnMbarrierOpcode(b, start, end)) {
      return null; // most lines: no allocation, one pass over the bytes
    }
    Fields fields = new Fields(b, start, end);
    if (lineInfo && fields.decimal() < 0) {
      return null;
    }
    if (fields.hex() < 0 || fields.hex() < 0) {
      return null;
    }
    long destinations = fields.decimal();
    if (destinations < 0 || !fields.skip(destinations)) {
      return null;
    }
    String opcode = fields.token();
    if (opcode == null) {
      return null;
    }
    boolean arriveSyncs = opcode.startsWith("SYNCS.ARRIVE");
    boolean arriveLdgsts = opcode.startsWith("ARRIVES.LDGSTSBAR");
    boolean trywait = opcode.contains("PHASECHK") && opcode.contains("TRYWAIT");
    boolean tmaLoad = opcode.startsWith("UTMALDG");
    if (!(arriveSyncs || arriveLdgsts || trywait || tmaLoad)) {
      return null;
    }
    long sources = fields.decimal();
    if (sources < 0 || !fields.skip(sources)) {
      return null;
    }
    long width = fields.decimal();
    if (width <= 0) {
      return null;
    }
    if (!tmaLoad) {
      long mode = fields.decimal();
      if (mode < 0 || mode > 2) {
        return null;
      }
    }
    long address = fields.hex();
    if (address < 0) {
      return null;
    }
    return new MbarrierUse(!trywait, (int) address);
  }

  private static final byte[][] OPCODE_PARTS = {
    "SYNCS.ARRIVE".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
    "ARRIVES.LDGSTSBAR".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
    "UTMALDG".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
    "PHASECHK".getBytes(java.nio.charset.StandardCharsets.US_ASCII)
  };

  /** Whether the line holds any text the opcodes {@link #of} looks for contain. */
  private static boolean mentionsAnMbarrierOpcode(byte[] b, int start, int end) {
    for (int i = start; i < end; i++) {
      byte c = b[i];
      if (c != 'S' && c != 'A' && c != 'U' && c != 'P') {
        continue;
      }
      for (byte[] part : OPCODE_PARTS) {
        if (part[0] == c
            && i + part.length <= end
            && java.util.Arrays.equals(b, i, i + part.length, part, 0, part.length)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whitespace-separated fields of a line; numbers read whole, -1 when absent or malformed. */
  private static final class Fields {
    private final byte[] b;
    private final int end;
    private int p;

    Fields(byte[] b, int start, int end) {
      this.b = b;
      this.end = end;
      this.p = start;
    }

    String token() {
      p = RawTraceScanner.skipSpace(b, p, end);
      if (p == end) {
        return null;
      }
      int tokenStart = p;
      p = RawTraceScanner.skipToken(b, p, end);
      return new String(b, tokenStart, p - tokenStart, java.nio.charset.StandardCharsets.US_ASCII);
    }

    boolean skip(long count) {
      for (long i = 0; i < count; i++) {
        if (token() == null) {
          return false;
        }
      }
      return true;
    }

    long decimal() {
      String token = token();
      if (token == null || token.isEmpty() || token.length() > 10) {
        return -1;
      }
      long value = 0;
      for (int i = 0; i < token.length(); i++) {
        char c = token.charAt(i);
        if (c < '0' || c > '9') {
          return -1;
        }
        value = value * 10 + (c - '0');
      }
      return value;
    }

    /** A hex number of up to 64 bits, {@code 0x} optional; -1 when absent or malformed. */
    long hex() {
      String token = token();
      if (token == null) {
        return -1;
      }
      if (token.startsWith("0x") || token.startsWith("0X")) {
        token = token.substring(2);
      }
      if (token.isEmpty() || token.length() > 16) {
        return -1;
      }
      try {
        long value = Long.parseUnsignedLong(token, 16);
        return value < 0 ? value & 0x7FFF_FFFF_FFFF_FFFFL : value;
      } catch (NumberFormatException e) {
        return -1;
      }
    }
  }
}
