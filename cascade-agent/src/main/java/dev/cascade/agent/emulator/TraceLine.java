package dev.cascade.agent.emulator;

/**
 * One instruction line of a {@code .traceg} (the ids already dropped by the post-processor), read
 * field by field as Accel-Sim's trace parser reads it, for tracer versions up to 6
 * (accel-sim-framework {@code gpu-simulator/trace-parser/trace_parser.cc} @ e1c2b67):
 *
 * <pre>
 * [line] PC mask ndst [dsts] opcode nsrc [srcs] [gmma] width [memory] imm [imm2] [Val|NoVal [values]]
 * </pre>
 *
 * <ul>
 *   <li>{@code line}: only when the kernel's header says {@code -enable lineinfo = 1}.
 *   <li>registers: {@code R12}, and from version 6 also uniform ({@code UR4}) and predicate ({@code
 *       P0}, {@code UP1}) ones.
 *   <li>{@code gmma}: from version 6, a {@code GMMA} opcode's commit-group flag comes before the
 *       width.
 *   <li>{@code memory}, when the width is above 0: the address mode and its addresses (0: one per
 *       active lane; 1: base and stride; 2: base and a delta per further active lane). A TMA opcode
 *       ({@code UTMALDG}, {@code UTMASTG}, {@code UTMAPF}, {@code UTMAREDG}, {@code UBLKCP}, {@code
 *       UBLKPF}, {@code UBLKRED}) has, from version 6, its mbarrier, a multicast flag (then the CTA
 *       mask when set), the bytes it moves and its out-of-bounds bytes, and then mode 3 (a count
 *       and that many addresses) or 4 (base, count, count - 1 deltas); before version 6 the mode
 *       comes right after the width.
 *   <li>version 6 adds a second immediate (optional), then {@code Val} or {@code NoVal}; after
 *       {@code Val}, each destination's then each source's values: a count (1 or 32) and that many
 *       hex values.
 * </ul>
 *
 * <p>Reading never fails: a line cut short or with a field that is not a number keeps what was read
 * before it ({@link #complete()} is then false). Each line is one instruction, whatever fields it
 * carries.
 */
final class TraceLine {

  /** Tracer version 6: the second immediate, register values, GMMA and TMA fields. */
  static final int TRACER_V6 = 6;

  private static final String[] TMA_OPCODES = {
    "UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG", "UBLKCP", "UBLKPF", "UBLKRED"
  };

  final String[] fields;
  int mask;
  boolean maskParsed;
  int destinationsAt;
  int destinations;
  String opcode;
  int sourcesAt;
  int sources;
  int width;
  int addressMode = -1;
  long firstAddress;
  boolean tma;

  /** A v6 TMA line's bytes moved (out-of-bounds bytes not included); -1 when not given. */
  long tmaBytes = -1;

  boolean multicast;
  int tmaTransfers;
  boolean hasValues;
  boolean complete;

  private int at;

  private TraceLine(String[] fields) {
    this.fields = fields;
  }

  /**
   * Reads {@code line} of a kernel traced by {@code tracerVersion}, with or without line numbers.
   */
  static TraceLine parse(String line, int tracerVersion, boolean lineInfo) {
    TraceLine parsed = new TraceLine(line.trim().split("\\s+"));
    parsed.read(tracerVersion, lineInfo);
    return parsed;
  }

  /** Active lanes: the mask's bits; 32 when it does not parse. */
  int lanes() {
    return maskParsed ? Integer.bitCount(mask) : 32;
  }

  private void read(int version, boolean lineInfo) {
    try {
      if (lineInfo) {
        at++;
      }
      at++; // PC
      String maskField = next();
      if (maskField.length() <= 8) {
        try {
          mask = Integer.parseUnsignedInt(maskField, 16);
          maskParsed = true;
        } catch (NumberFormatException e) {
          maskParsed = false;
        }
      }
      destinations = decimal();
      destinationsAt = at;
      at += destinations;
      opcode = next();
      sources = decimal();
      sourcesAt = at;
      at += sources;
      boolean v6 = version >= TRACER_V6;
      tma = isTma(opcode);
      if (v6 && opcode.contains("GMMA")) {
        decimal(); // the commit-group flag
      }
      width = decimal();
      if (tma) {
        readTma(v6);
      } else if (width > 0) {
        readAddresses();
      }
      if (at < fields.length) {
        at++; // imm
      }
      if (v6) {
        if (at < fields.length && isDecimal(fields[at])) {
          at++; // imm2
        }
        if (at < fields.length) {
          String values = next();
          if (values.equals("Val")) {
            hasValues = true;
            for (int i = 0; i < destinations + sources; i++) {
              int distinct = decimal();
              at += distinct;
            }
          }
        }
      }
      complete = at <= fields.length;
    } catch (RuntimeException cutShortOrNotANumber) {
      complete = false;
    }
  }

  private void readTma(boolean v6) {
    if (v6) {
      at++; // mbarrier
      multicast = decimal() != 0;
      if (multicast) {
        at++; // CTA mask
      }
      tmaBytes = Long.parseLong(next());
      Long.parseLong(next()); // out-of-bounds bytes: not moved
    }
    addressMode = decimal();
    if (addressMode == 3) {
      tmaTransfers = decimal();
      if (tmaTransfers > 0) {
        firstAddress = hex(fields[at]);
      }
      at += tmaTransfers;
    } else if (addressMode == 4) {
      firstAddress = hex(next());
      tmaTransfers = decimal();
      at += Math.max(0, tmaTransfers - 1);
    }
  }

  private void readAddresses() {
    addressMode = decimal();
    int active = lanes();
    switch (addressMode) {
      case 0 -> {
        if (active > 0) {
          firstAddress = hex(fields[at]);
        }
        at += active;
      }
      case 1 -> {
        firstAddress = hex(next());
        at++; // stride
      }
      case 2 -> {
        firstAddress = hex(next());
        at += Math.max(0, active - 1);
      }
      default -> {}
    }
  }

  /** The bytes a TMA line moves: its v6 byte count, else its width times the transfers listed. */
  long tmaBytesMoved() {
    if (tmaBytes >= 0) {
      return tmaBytes;
    }
    return (long) Math.max(0, width) * Math.max(1, tmaTransfers);
  }

  private String next() {
    return fields[at++];
  }

  private int decimal() {
    return Integer.parseInt(next());
  }

  private static boolean isDecimal(String field) {
    if (field.isEmpty()) {
      return false;
    }
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static long hex(String field) {
    String digits = field.startsWith("0x") || field.startsWith("0X") ? field.substring(2) : field;
    return Long.parseUnsignedLong(digits, 16);
  }

  static boolean isTma(String opcode) {
    for (String tma : TMA_OPCODES) {
      if (opcode.contains(tma)) {
        return true;
      }
    }
    return false;
  }
}
