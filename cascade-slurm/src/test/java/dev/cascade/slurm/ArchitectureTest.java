package dev.cascade.slurm;

import dev.cascade.core.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** docs/architecture.md's rules for this module: it uses cascade-core's public API only. */
final class ArchitectureTest {

  @Test
  void mainCode_usesCorePublicApiOnly() {
    ArchitectureRules.noUseOfCoreInternals()
        .check(ArchitectureRules.mainClassesOf("dev.cascade.slurm"));
  }
}
