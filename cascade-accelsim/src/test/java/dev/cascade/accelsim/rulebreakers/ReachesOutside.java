package dev.cascade.accelsim.rulebreakers;

import org.assertj.core.api.Assertions;

/**
 * Breaks "uses only what it ships with" on purpose: it uses a library the module does not ship
 * with. For {@code ArchitectureTest} only; never used.
 */
public final class ReachesOutside {

  private ReachesOutside() {}

  static Object reach() {
    return Assertions.assertThat(1);
  }
}
