package dev.cascade.accelsim.stats;

import static dev.cascade.accelsim.stats.Bytes.indexOf;
import static dev.cascade.accelsim.stats.Bytes.skipBlanks;
import static dev.cascade.accelsim.stats.Bytes.trimRight;

import dev.cascade.accelsim.stats.KeyTable.Key;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statistics block of one finished kernel, from {@code kernel_name = ...} to its end, with what
 * carries from one block to the next: the previous totals (a kernel's own cycles and instructions
 * are the differences), the instance counter of each kernel name, and the parser's view of the key
 * table that all parsers share ({@link ParserKeys}).
 *
 * <p>It collects numbers and hands back the {@link KernelStats} when the block closes; reporting
 * them is the parser's job.
 */
final class StatsBlock {

  /** Statistics beyond this many in one block are dropped (a real block has 1,200 to 1,600). */
  static final int MAX_BLOCK_ENTRIES = 1 << 16;

  static final String UNNAMED = "(unnamed)";

  private static final int LAYOUT_CACHE = 8;

  private final ParserKeys keys = new ParserKeys(KeyTable.SHARED);
  private final NumberScanner number = new NumberScanner();
  private final Key gpuSimCycle = keys.intern("gpu_sim_cycle");
  private final Key gpuSimInsn = keys.intern("gpu_sim_insn");
  private final Key gpuTotSimCycle = keys.intern("gpu_tot_sim_cycle");
  private final Key gpuTotSimInsn = keys.intern("gpu_tot_sim_insn");
  private final Key kernelLaunchUid = keys.intern("kernel_launch_uid");
  private final Key siliconSlowdown = keys.intern("gpgpu_silicon_slowdown");

  // The open block.
  private boolean open;
  private String name;
  private int generation;
  private Key[] blockKeys = new Key[256];
  private long[] values = new long[256];
  private long[] decimals = new long[4];
  private int count;
  private long totalCycles;
  private long totalInsn;
  private long simCycles;
  private long simInsn;
  private long uid;
  private final StatsLayout[] layouts = new StatsLayout[LAYOUT_CACHE];
  private int nextLayout;
  private byte[] fieldKey = new byte[128]; // a field list's "prefix.field" key being looked up
  private Map<String, List<Number>> vectors; // null until the block has one

  // Across blocks.
  private long previousTotalCycles;
  private long previousTotalInsn;
  private final Map<String, Integer> instances = new HashMap<>();

  /** True between {@code kernel_name = ...} and the block's end. */
  boolean isOpen() {
    return open;
  }

  /** Opens the block of kernel {@code kernelName}; an open block must be closed first. */
  void open(String kernelName) {
    open = true;
    name = kernelName.isEmpty() ? UNNAMED : kernelName;
    count = 0;
    generation++;
    keys.startBlock();
    totalCycles = -1;
    totalInsn = -1;
    simCycles = -1;
    simInsn = -1;
    uid = -1;
    vectors = null;
  }

  /**
   * A line inside the block: {@code key = number[unit]}, or {@code prefix: a = 1, b = 2, ...}; any
   * other line is skipped. Returns true when the line ends the block ({@code
   * gpgpu_silicon_slowdown}).
   */
  boolean statLine(byte[] b, int p, int end) {
    int equals = indexOf(b, p, end, (byte) '=');
    if (equals < 0) {
      return false;
    }
    int keyEnd = trimRight(b, p, equals);
    if (keyEnd == p) {
      return false;
    }
    Key key = keys.lookup(b, p, keyEnd, KeyTable.hash(b, p, keyEnd));
    if (key.colon >= 0) {
      fieldList(key, b, p, p + key.colon, end);
      return false;
    }
    if (!key.plain) {
      return false;
    }
    if (number.scan(b, skipBlanks(b, equals + 1, end), end)) {
      if (NumberScanner.unitOnly(b, number.end, end)) {
        add(key);
      } else {
        vector(key, b, number.end, end);
      }
    }
    return key == siliconSlowdown;
  }

  /**
   * {@code key = v0,v1,...}: the number just scanned, then {@code ,} and a number, again and again
   * (blanks around them and one comma at the end allowed). Kept as a list when the whole rest of
   * the line is such; anything else is skipped, as before.
   */
  private void vector(Key key, byte[] b, int p, int end) {
    List<Number> values = new ArrayList<>();
    values.add(scanned());
    int q = skipBlanks(b, p, end);
    while (q < end && b[q] == ',') {
      q = skipBlanks(b, q + 1, end);
      if (q == end) {
        break; // a trailing comma
      }
      if (!number.scan(b, q, end)) {
        return;
      }
      values.add(scanned());
      q = skipBlanks(b, number.end, end);
    }
    if (q != end || values.size() < 2) {
      return;
    }
    if (vectors == null) {
      vectors = new LinkedHashMap<>();
    }
    String name = key.name;
    for (int n = 2; vectors.containsKey(name); n++) {
      name = key.name + "#" + n;
    }
    vectors.put(name, List.copyOf(values));
  }

  private Number scanned() {
    return number.isDecimal ? (Number) number.doubleValue : (Number) number.longValue;
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
    if (!number.scan(b, skipBlanks(b, equals + 1, end), end)
        || trimRight(b, number.end, end) != number.end) {
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
    if (count == MAX_BLOCK_ENTRIES) {
      return;
    }
    Key k = key;
    if (keys.generation(key) != generation) {
      keys.added(key, generation, 1);
    } else {
      int n = keys.occurrences(key);
      do {
        k = keys.repeat(key, ++n);
      } while (keys.generation(k) == generation);
      keys.added(key, generation, n);
      keys.added(k, generation, 1);
    }
    if (count == blockKeys.length) {
      blockKeys = Arrays.copyOf(blockKeys, count * 2);
      values = Arrays.copyOf(values, count * 2);
      decimals = Arrays.copyOf(decimals, count * 2 / 64);
    }
    int i = count++;
    blockKeys[i] = k;
    long bit = 1L << i;
    if (number.isDecimal) {
      values[i] = Double.doubleToRawLongBits(number.doubleValue);
      decimals[i >>> 6] |= bit;
    } else {
      values[i] = number.longValue;
      decimals[i >>> 6] &= ~bit;
    }
    if (k == gpuTotSimCycle) {
      totalCycles = number.wholeNumber();
    } else if (k == gpuTotSimInsn) {
      totalInsn = number.wholeNumber();
    } else if (k == gpuSimCycle) {
      simCycles = number.wholeNumber();
    } else if (k == gpuSimInsn) {
      simInsn = number.wholeNumber();
    } else if (k == kernelLaunchUid) {
      uid = number.wholeNumber();
    }
  }

  /**
   * Closes the open block and returns its kernel, or returns null when none is open. Without a
   * {@code kernel_launch_uid}, the kernel has the uid of the last launch line when that named it.
   */
  KernelStats close(String launchedName, long launchedUid) {
    if (!open) {
      return null;
    }
    open = false;
    long cycles;
    if (totalCycles >= 0) {
      cycles =
          totalCycles >= previousTotalCycles
              ? totalCycles - previousTotalCycles
              : totalCycles; // the totals went back: a new simulation started
      previousTotalCycles = totalCycles;
    } else {
      cycles = Math.max(0, simCycles);
      previousTotalCycles += cycles;
    }
    long insn;
    if (totalInsn >= 0) {
      insn = totalInsn >= previousTotalInsn ? totalInsn - previousTotalInsn : totalInsn;
      previousTotalInsn = totalInsn;
    } else {
      insn = Math.max(0, simInsn);
      previousTotalInsn += insn;
    }
    double ipc = cycles == 0 ? 0 : (double) insn / cycles;
    long kernelUid = uid >= 0 ? uid : name.equals(launchedName) ? launchedUid : 0;
    int instance = instances.merge(name, 1, Integer::sum) - 1;
    BlockStats stats =
        new BlockStats(
            layout(), Arrays.copyOf(values, count), Arrays.copyOf(decimals, (count + 63) >>> 6));
    return new KernelStats(
        name, kernelUid, instance, cycles, insn, ipc, stats, vectors == null ? Map.of() : vectors);
  }

  /** The layout of the current block's keys, shared with earlier blocks that had the same keys. */
  private StatsLayout layout() {
    for (int i = 0; i < LAYOUT_CACHE; i++) {
      StatsLayout candidate = layouts[(nextLayout - 1 - i + LAYOUT_CACHE) % LAYOUT_CACHE];
      if (candidate != null && candidate.matches(blockKeys, count)) {
        return candidate;
      }
    }
    StatsLayout created = SharedLayouts.SHARED.layout(blockKeys, count);
    layouts[nextLayout] = created;
    nextLayout = (nextLayout + 1) % LAYOUT_CACHE;
    return created;
  }
}
