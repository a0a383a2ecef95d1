package dev.cascade.accelsim.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Statistic keys by their bytes, so a key seen in every block becomes one {@code String} once and
 * is then found without decoding. One table, {@link #SHARED}, serves every parser in the JVM: a
 * server with thousands of sims learns the ~1,500 keys of a real log once, not once per sim.
 *
 * <p>Thread-safe: lookups read without locking (a {@link Key} is immutable but for its caches,
 * which hold only immutable values and tolerate races); adding a key takes a lock. Bounded: past
 * {@link #MAX_KEYS} distinct keys it adds no more, and {@link #find} returns null for a new key
 * (each parser keeps such keys itself until the end of its current block, see {@link ParserKeys}).
 */
final class KeyTable {

  static final int MAX_KEYS = 1 << 16;
  static final KeyTable SHARED = new KeyTable(MAX_KEYS);

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
  private static final int MAX_CACHED_FIELDS = 64;

  /** The field of a field list seen at one position: its name and its full key. */
  private record Field(byte[] name, Key key) {}

  /** One distinct key. */
  static final class Key {
    final String name;
    final byte[] bytes;
    final int hash;

    /**
     * This key's number: below {@link #MAX_KEYS} for a key of the table, at or above it for a
     * parser's own overflow key. Parsers keep per-block counts by it.
     */
    final int id;

    // Racy caches of immutable values: a reader sees a consistent value or null, never a torn one.
    private Key[] repeats; // repeats[n]: the key "name#n"
    private Field[] fields; // the field last seen at each position of a field list

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

    /** The key of field {@code position} when it is named {@code b[start, end)} again, or null. */
    Key field(int position, byte[] b, int start, int end) {
      Field[] known = fields;
      if (known != null && position < known.length) {
        Field field = known[position];
        if (field != null && Arrays.equals(field.name, 0, field.name.length, b, start, end)) {
          return field.key;
        }
      }
      return null;
    }

    /** So "L2_cache_bank[3]: Access = 1, Miss = 2" finds L2_cache_bank[3].Miss without a lookup. */
    void rememberField(int position, byte[] b, int start, int end, Key key) {
      if (!inTable() || !key.inTable() || position >= MAX_CACHED_FIELDS) {
        return;
      }
      Field[] known = fields;
      Field[] copy =
          Arrays.copyOf(
              known == null ? new Field[0] : known,
              known != null && position < known.length
                  ? known.length
                  : Math.min(MAX_CACHED_FIELDS, Math.max(8, position * 2)));
      copy[position] = new Field(Arrays.copyOfRange(b, start, end), key);
      fields = copy; // copy on write: a reader never sees an array being filled
    }

    Key repeatCached(int n) {
      Key[] known = repeats;
      return known != null && n < known.length ? known[n] : null;
    }

    void rememberRepeat(int n, Key key) {
      if (!inTable() || !key.inTable() || n >= MAX_CACHED_REPEAT) {
        return;
      }
      Key[] known = repeats;
      Key[] copy =
          Arrays.copyOf(
              known == null ? new Key[0] : known,
              known != null && n < known.length ? known.length : Math.max(4, n * 2));
      copy[n] = key;
      repeats = copy;
    }

    boolean inTable() {
      return id < MAX_KEYS;
    }

    Key(String name, byte[] bytes, int hash, int id) {
      this.name = name;
      this.bytes = bytes;
      this.hash = hash;
      this.id = id;
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

  private static final int MAX_CACHED_REPEAT = 1 << 10;

  private volatile Key[] slots = new Key[1 << 12];
  private final int maxKeys;
  private int size; // guarded by this

  /** A table that adds at most {@code maxKeys} (at most {@link #MAX_KEYS}) keys. */
  KeyTable(int maxKeys) {
    this.maxKeys = Math.min(maxKeys, MAX_KEYS);
  }

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

  /** The key for {@code bytes[start, end)} (whose {@link #hash} is {@code hash}), or null. */
  Key find(byte[] bytes, int start, int end, int hash) {
    Key key = probe(slots, bytes, start, end, hash);
    return key != null ? key : add(bytes, start, end, hash);
  }

  private static Key probe(Key[] table, byte[] bytes, int start, int end, int hash) {
    int mask = table.length - 1;
    int i = (hash ^ (hash >>> 16)) & mask;
    for (Key key = table[i]; key != null; key = table[i]) {
      if (key.hash == hash && Arrays.equals(key.bytes, 0, key.bytes.length, bytes, start, end)) {
        return key;
      }
      i = (i + 1) & mask;
    }
    return null;
  }

  /** Adds a key not found without the lock; null when the table is full. */
  private synchronized Key add(byte[] bytes, int start, int end, int hash) {
    Key[] table = slots;
    Key known = probe(table, bytes, start, end, hash);
    if (known != null || size >= maxKeys) {
      return known;
    }
    byte[] copy = Arrays.copyOfRange(bytes, start, end);
    Key created = new Key(new String(copy, StandardCharsets.UTF_8), copy, hash, size);
    if ((size + 1) * 2 > table.length) {
      table = grow(table);
    }
    int mask = table.length - 1;
    int i = (hash ^ (hash >>> 16)) & mask;
    while (table[i] != null) {
      i = (i + 1) & mask;
    }
    table[i] = created;
    size++;
    slots = table; // volatile write: publishes the grown table and the new key
    return created;
  }

  private static Key[] grow(Key[] old) {
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
    return table;
  }
}
