package dev.cascade.accelsim.stats;

import java.util.HashMap;
import java.util.Map;

/**
 * The ordered keys of a statistics block, shared by every block that has exactly the same keys (in
 * a long log almost every block of a kernel does), so each block only stores its values.
 */
final class StatsLayout {

  private final String[] names;
  private volatile Map<String, Integer> index; // built on first lookup

  StatsLayout(String[] names) {
    this.names = names;
  }

  int size() {
    return names.length;
  }

  String name(int position) {
    return names[position];
  }

  /** True when {@code keys[0..count)} are, one for one, the very key objects of this layout. */
  boolean matches(KeyTable.Key[] keys, int count) {
    if (count != names.length) {
      return false;
    }
    for (int i = count - 1; i >= 0; i--) {
      if (keys[i].name != names[i]) { // keys are interned: identity is equality
        return false;
      }
    }
    return true;
  }

  int indexOf(Object key) {
    Map<String, Integer> map = index;
    if (map == null) {
      map = new HashMap<>(names.length * 2);
      for (int i = 0; i < names.length; i++) {
        map.put(names[i], i);
      }
      index = map;
    }
    Integer position = map.get(key);
    return position == null ? -1 : position;
  }
}
