package dev.cascade.agent.emulator;

/**
 * The memory operand of a {@code .traceg} instruction line: {@code PC mask dest_num [dests] opcode
 * src_num [srcs] mem_width [mode address ...]}, where the mode is 0 (a list of addresses), 1 (base
 * and stride) or 2 (base and deltas), so the first address follows the mode in every case.
 *
 * @param width bytes each active lane moves; 4 when the line does not say
 * @param firstAddress the first lane's address; 0 when the line gives none
 */
record MemoryOperand(int width, long firstAddress) {

  static MemoryOperand of(String[] fields) {
    try {
      int at = 3 + Integer.parseInt(fields[2]);
      int sources = Integer.parseInt(fields[at + 1]);
      int widthAt = at + 2 + sources;
      int width = Integer.parseInt(fields[widthAt]);
      long address = 0;
      if (widthAt + 2 < fields.length && fields[widthAt + 2].startsWith("0x")) {
        address = Long.parseUnsignedLong(fields[widthAt + 2].substring(2), 16);
      }
      return new MemoryOperand(width > 0 ? width : 4, address);
    } catch (RuntimeException e) {
      return new MemoryOperand(4, 0);
    }
  }
}
