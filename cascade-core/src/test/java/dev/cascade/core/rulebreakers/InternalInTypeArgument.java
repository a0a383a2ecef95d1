package dev.cascade.core.rulebreakers;

import dev.cascade.core.internal.Engine;
import java.util.List;
import java.util.Map;

/**
 * Breaks "no public signature names an internal type" on purpose, only inside type arguments, for
 * {@code ArchitectureRulesTest} to show the rule sees it. Never used.
 */
public final class InternalInTypeArgument {

  private InternalInTypeArgument() {}

  /** Names {@link Engine} as a list's element type. */
  public static List<Engine> engines() {
    return List.of();
  }

  /** Names {@link Engine} as a map's value type, in a parameter. */
  public static void take(Map<String, Engine> engines) {}
}
