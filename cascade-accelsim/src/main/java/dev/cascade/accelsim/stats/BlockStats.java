package dev.cascade.accelsim.stats;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The statistics of one block as a compact, unmodifiable map: the keys live in a {@link
 * StatsLayout} shared by every block with the same keys, the values in one {@code long} each.
 */
final class BlockStats extends AbstractMap<String, Number> {

  private final StatsLayout layout;
  private final long[] values; // a long, or the raw bits of a double
  private final long[] decimals; // bit i set: values[i] is a double

  /** The keys, shared with every block (of any parser) that has the same ones. */
  StatsLayout layout() {
    return layout;
  }

  BlockStats(StatsLayout layout, long[] values, long[] decimals) {
    this.layout = layout;
    this.values = values;
    this.decimals = decimals;
  }

  private boolean decimal(int index) {
    return (decimals[index >>> 6] & (1L << index)) != 0;
  }

  private Number value(int index) {
    if (decimal(index)) {
      return Double.longBitsToDouble(values[index]); // (a ?: here would turn longs into doubles)
    }
    return values[index];
  }

  void visit(KernelStats.StatVisitor visitor) {
    for (int i = 0; i < values.length; i++) {
      if (decimal(i)) {
        visitor.decimal(layout.name(i), Double.longBitsToDouble(values[i]));
      } else {
        visitor.integer(layout.name(i), values[i]);
      }
    }
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public boolean containsKey(Object key) {
    return layout.indexOf(key) >= 0;
  }

  @Override
  public Number get(Object key) {
    int index = layout.indexOf(key);
    return index < 0 ? null : value(index);
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Number> action) {
    for (int i = 0; i < values.length; i++) {
      action.accept(layout.name(i), value(i));
    }
  }

  @Override
  public Set<Map.Entry<String, Number>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return values.length;
      }

      @Override
      public Iterator<Map.Entry<String, Number>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < values.length;
          }

          @Override
          public Map.Entry<String, Number> next() {
            if (next >= values.length) {
              throw new NoSuchElementException();
            }
            int index = next++;
            return new AbstractMap.SimpleImmutableEntry<>(layout.name(index), value(index));
          }
        };
      }
    };
  }
}
