package dev.cascade.agent.rulebreakers;

import org.awaitility.Awaitility;

/**
 * Breaks "uses only what it ships with" on purpose: it uses a library the module does not ship
 * with. For {@code ArchitectureTest} only; never used.
 */
public final class ReachesOutside {

  private ReachesOutside() {}

  static Object reach() {
    return Awaitility.await();
  }
}
