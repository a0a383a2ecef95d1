package dev.cascade.core.rulebreakers;

/**
 * Stands for a class of Cascade's outside cascade-api, for {@link ReachesOutsideTheApi} to reach.
 */
public final class NotInTheApi {

  private NotInTheApi() {}

  static String name() {
    return "outside";
  }
}
