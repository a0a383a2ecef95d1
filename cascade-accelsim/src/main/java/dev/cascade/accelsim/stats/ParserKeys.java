package dev.cascade.accelsim.stats;

import dev.cascade.accelsim.stats.KeyTable.Key;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One parser's view of the statistic keys: the shared {@link KeyTable}, plus the parser's own
 * overflow keys (those that did not fit in the full table, kept until the current block ends) and
 * how often each key was added in the current block, by {@link Key#id}.
 *
 * <p>Not thread-safe, like its parser.
 */
final class ParserKeys {

  private final KeyTable table;
  private final Map<String, Key> overflow = new HashMap<>();
  private byte[] scratch = new byte[128];

  // Per key id: the block in which it was last added, and how often in that block.
  private int[] generations = new int[2048];
  private int[] occurrences = new int[2048];

  ParserKeys(KeyTable table) {
    this.table = table;
    Arrays.fill(generations, -1);
  }

  Key intern(String name) {
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    return lookup(bytes, 0, bytes.length, KeyTable.hash(bytes, 0, bytes.length));
  }

  /** The key for {@code bytes[start, end)}, whose {@link KeyTable#hash} is {@code hash}. */
  Key lookup(byte[] bytes, int start, int end, int hash) {
    Key key = table.find(bytes, start, end, hash);
    if (key != null) {
      return key;
    }
    String name = new String(bytes, start, end - start, StandardCharsets.UTF_8);
    Key known = overflow.get(name);
    if (known != null) {
      return known;
    }
    Key created =
        new Key(
            name, Arrays.copyOfRange(bytes, start, end), hash, KeyTable.MAX_KEYS + overflow.size());
    overflow.put(name, created);
    return created;
  }

  /** The key {@code base#n}, the n-th occurrence of {@code base} in one block. */
  Key repeat(Key base, int n) {
    Key cached = base.repeatCached(n);
    if (cached != null) {
      return cached;
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
    Key key = lookup(scratch, 0, length, KeyTable.hash(scratch, 0, length));
    base.rememberRepeat(n, key);
    return key;
  }

  /** The block in which {@code key} was last added, or -1. */
  int generation(Key key) {
    return key.id < generations.length ? generations[key.id] : -1;
  }

  int occurrences(Key key) {
    return occurrences[key.id];
  }

  /** Notes that {@code key} was added in block {@code generation}, {@code count} times so far. */
  void added(Key key, int generation, int count) {
    int id = key.id;
    if (id >= generations.length) {
      int length = Math.max(id + 1, generations.length * 2);
      int old = generations.length;
      generations = Arrays.copyOf(generations, length);
      Arrays.fill(generations, old, length, -1);
      occurrences = Arrays.copyOf(occurrences, length);
    }
    generations[id] = generation;
    occurrences[id] = count;
  }

  /** Forgets the overflow keys and their counts; called when a block starts. */
  void startBlock() {
    if (!overflow.isEmpty()) {
      int end = Math.min(generations.length, KeyTable.MAX_KEYS + overflow.size());
      if (end > KeyTable.MAX_KEYS) {
        Arrays.fill(generations, KeyTable.MAX_KEYS, end, -1);
      }
      overflow.clear();
    }
  }
}
