package dev.cascade.core.rulebreakers;

import dev.cascade.core.internal.http.HttpApi;

/**
 * Breaks "only the HTTP layer and its public face know it" on purpose: a public class outside
 * {@code internal.http} that calls the HTTP layer in a method body, where no signature shows it.
 * For {@code ArchitectureRulesTest} only; never used.
 */
public final class PublicClassReachingHttp {

  private PublicClassReachingHttp() {}

  static void close(Object api) {
    ((HttpApi) api).close();
  }
}
