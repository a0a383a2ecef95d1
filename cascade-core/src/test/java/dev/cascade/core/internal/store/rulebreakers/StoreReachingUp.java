package dev.cascade.core.internal.store.rulebreakers;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.SimTokens;

/**
 * Breaks "the store reaches nothing above it" on purpose from inside {@code internal.store}: it
 * calls the engine and a run-layer class. For {@code ArchitectureRulesTest} only; never used.
 */
public final class StoreReachingUp {

  private StoreReachingUp() {}

  static void reachUp(Engine engine) {
    engine.close();
    SimTokens.class.getName();
  }
}
