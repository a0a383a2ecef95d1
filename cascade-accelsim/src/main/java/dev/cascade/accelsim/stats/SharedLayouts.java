package dev.cascade.accelsim.stats;

import dev.cascade.accelsim.stats.KeyTable.Key;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The block layouts seen last by any parser in the JVM. Keys come from the shared {@link KeyTable},
 * so sims of the same GPU and kernel have the very same layout: the first kernel of each new sim
 * finds it here instead of building its names and its index again.
 *
 * <p>Thread-safe: a layout is immutable (its index is built once, racily but whole); the cache
 * keeps the last {@link #SIZE} layouts added.
 */
final class SharedLayouts {

  static final SharedLayouts SHARED = new SharedLayouts();

  private static final int SIZE = 32;

  private final AtomicReferenceArray<StatsLayout> layouts = new AtomicReferenceArray<>(SIZE);
  private final AtomicInteger next = new AtomicInteger();

  /** The layout of {@code keys[0..count)}, from the cache or made and added to it. */
  StatsLayout layout(Key[] keys, int count) {
    for (int i = 0; i < SIZE; i++) {
      StatsLayout candidate = layouts.get(i);
      if (candidate != null && candidate.matches(keys, count)) {
        return candidate;
      }
    }
    String[] names = new String[count];
    for (int i = 0; i < count; i++) {
      names[i] = keys[i].name;
    }
    StatsLayout created = new StatsLayout(names);
    if (inTable(keys, count)) { // a parser's own overflow keys match no other parser's
      layouts.set(Math.floorMod(next.getAndIncrement(), SIZE), created);
    }
    return created;
  }

  private static boolean inTable(Key[] keys, int count) {
    for (int i = 0; i < count; i++) {
      if (!keys[i].inTable()) {
        return false;
      }
    }
    return true;
  }
}
