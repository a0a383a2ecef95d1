package dev.cascade.core.internal.catalog.rulebreakers;

import dev.cascade.core.internal.Engine;

/**
 * Breaks "the catalog reaches nothing above it" on purpose from inside {@code internal.catalog}: it
 * holds the engine. For {@code ArchitectureRulesTest} only; never used.
 */
public final class CatalogReachingTheEngine {

  private final Engine engine;

  CatalogReachingTheEngine(Engine engine) {
    this.engine = engine;
  }

  Engine engine() {
    return engine;
  }
}
