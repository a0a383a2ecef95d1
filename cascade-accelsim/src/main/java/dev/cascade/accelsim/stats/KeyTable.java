package dev.cascade.accelsim.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Statistic keys by their bytes, so a key seen in every block becomes one {@code String} once and
 * is then found without decoding. Bounded: past {@link #MAX_KEYS} distinct keys, new keys live only
 * until the end of the current block.
 */
final class KeyTable {

  static final int MAX_KEYS = 1 << 16;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
  private static final int MAX_CACHED_REPEAT = 1 << 10;
  private static final int MAX_CACHED_FIELDS = 64;

  /** One distinct key, with the parser's per-block bookkeeping. */
  static final class Key {
    final String name;
    final byte[] bytes;
    final int hash;
    int generation = -1; // the block in which this key was last added
    int occurrences; // how often it was added in that block
    Key[] repeats; // repeats[n]: the key "name#n"
    boolean inTable; // false: an overflow key, valid until the block ends

    /**
     * True when this is a statistic's name: it holds none of {@code : ( ) , { } "}. A line {@code
     * name = 12} is kept under it.
     */
    final boolean plain;

    /**
     * Where the first {@code :} is when this is the start of a field list such as {@code
     * L2_cache_bank[3]: Access} (of {@code L2_cache_bank[3]: Access = 12, Miss = 10, ...}): the
     * part before it has no blank and none of {@code ( ) , { } "}. Otherwise -1.
     */
    final int colon;

    // For a field list (colon >= 0): the name and key of the field at each position last seen,
    // so "L2_cache_bank[3]: Access = 1, Miss = 2" finds L2_cache_bank[3].Miss without a lookup.
    private byte[][] fieldNames;
    private Key[] fieldKeys;

    /** The key of field {@code position} when it is named {@code b[start, end)} again, or null. */
    Key field(int position, byte[] b, int start, int end) {
      if (fieldNames != null && position < fieldNames.length) {
        byte[] name = fieldNames[position];
        if (name != null && Arrays.equals(name, 0, name.length, b, start, end)) {
          return fieldKeys[position];
        }
      }
      return null;
    }

    void rememberField(int position, byte[] b, int start, int end, Key key) {
      if (!inTable || !key.inTable || position >= MAX_CACHED_FIELDS) {
        return;
      }
      if (fieldNames == null || position >= fieldNames.length) {
        int length = Math.min(MAX_CACHED_FIELDS, Math.max(8, position * 2));
        fieldNames = Arrays.copyOf(fieldNames == null ? new byte[0][] : fieldNames, length);
        fieldKeys = Arrays.copyOf(fieldKeys == null ? new Key[0] : fieldKeys, length);
      }
      fieldNames[position] = Arrays.copyOfRange(b, start, end);
      fieldKeys[position] = key;
    }

    Key(String name, byte[] bytes, int hash) {
      this.name = name;
      this.bytes = bytes;
      this.hash = hash;
      int colonAt = -1;
      boolean clean = true;
      boolean blank = false;
      for (int i = 0; i < bytes.length && colonAt < 0 && clean; i++) {
        byte c = bytes[i];
        if (c == ':') {
          colonAt = i;
        } else if (c == '(' || c == ')' || c == ',' || c == '{' || c == '}' || c == '"') {
          clean = false;
        } else if (c == ' ' || c == '\t') {
          blank = true;
        }
      }
      this.plain = clean && colonAt < 0;
      this.colon = colonAt > 0 && !blank ? colonAt : -1;
    }
  }

  private Key[] slots = new Key[1 << 12];
  private int size;
  private final Map<String, Key> overflow = new HashMap<>();
  private byte[] scratch = new byte[128];

  /** A hash of {@code bytes[start, end)}, eight bytes at a time. */
  static int hash(byte[] bytes, int start, int end) {
    long hash = end - start;
    int i = start;
    for (int last = end - Long.BYTES; i <= last; i += Long.BYTES) {
      hash = (hash ^ (long) LONGS.get(bytes, i)) * MULTIPLIER;
      hash ^= hash >>> 29;
    }
    long tail = 0;
    if (i < end && end >= Long.BYTES) {
      // The last 1 to 7 bytes: one word ending at end, shifted so the bytes before i drop out.
      tail = (long) LONGS.get(bytes, end - Long.BYTES) >>> ((Long.BYTES - (end - i)) << 3);
    } else {
      for (int shift = 0; i < end; i++, shift += 8) {
        tail |= (bytes[i] & 0xFFL) << shift;
      }
    }
    hash = (hash ^ tail) * MULTIPLIER;
    return (int) (hash ^ (hash >>> 32));
  }

  Key intern(String name) {
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    return lookup(bytes, 0, bytes.length, hash(bytes, 0, bytes.length));
  }

  /** The key for {@code bytes[start, end)}, whose {@link #hash} is {@code hash}. */
  Key lookup(byte[] bytes, int start, int end, int hash) {
    Key[] table = slots;
    int mask = table.length - 1;
    int i = (hash ^ (hash >>> 16)) & mask;
    int length = end - start;
    for (Key key = table[i]; key != null; key = table[i]) {
      if (key.hash == hash && Arrays.equals(key.bytes, 0, key.bytes.length, bytes, start, end)) {
        return key;
      }
      i = (i + 1) & mask;
    }
    byte[] copy = Arrays.copyOfRange(bytes, start, end);
    Key created = new Key(new String(copy, 0, length, StandardCharsets.UTF_8), copy, hash);
    if (size >= MAX_KEYS) {
      Key existing = overflow.putIfAbsent(created.name, created);
      return existing == null ? created : existing;
    }
    created.inTable = true;
    table[i] = created;
    if (++size * 2 > table.length) {
      grow();
    }
    return created;
  }

  /** The key {@code base#n}, the n-th occurrence of {@code base} in one block. */
  Key repeat(Key base, int n) {
    Key[] repeats = base.repeats;
    if (repeats != null && n < repeats.length && repeats[n] != null) {
      return repeats[n];
    }
    int digits = 1;
    for (int rest = n / 10; rest > 0; rest /= 10) {
      digits++;
    }
    int length = base.bytes.length + 1 + digits;
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    System.arraycopy(base.bytes, 0, scratch, 0, base.bytes.length);
    scratch[base.bytes.length] = '#';
    for (int i = length - 1, rest = n; i > base.bytes.length; i--, rest /= 10) {
      scratch[i] = (byte) ('0' + rest % 10);
    }
    Key key = lookup(scratch, 0, length, hash(scratch, 0, length));
    if (n < MAX_CACHED_REPEAT && key.inTable) {
      if (repeats == null || n >= repeats.length) {
        repeats = Arrays.copyOf(repeats == null ? new Key[0] : repeats, Math.max(4, n * 2));
        base.repeats = repeats;
      }
      repeats[n] = key;
    }
    return key;
  }

  /** Forgets the keys that did not fit in the table; called when a block starts. */
  void startBlock() {
    if (!overflow.isEmpty()) {
      overflow.clear();
    }
  }

  private void grow() {
    Key[] old = slots;
    Key[] table = new Key[old.length * 2];
    int mask = table.length - 1;
    for (Key key : old) {
      if (key != null) {
        int i = (key.hash ^ (key.hash >>> 16)) & mask;
        while (table[i] != null) {
          i = (i + 1) & mask;
        }
        table[i] = key;
      }
    }
    slots = table;
  }
}
