package dev.cascade.core.rulebreakers;

import dev.cascade.core.Trace;

/**
 * Breaks "cascade-api depends on nothing of Cascade's but itself" on purpose: it names an API type,
 * which is fine, and {@link NotInTheApi}, which stands for a class of another module. For {@code
 * ApiArchitectureTest} only; never used.
 */
public final class ReachesOutsideTheApi {

  private ReachesOutsideTheApi() {}

  static String describe(Trace trace) {
    return trace + NotInTheApi.name();
  }
}
