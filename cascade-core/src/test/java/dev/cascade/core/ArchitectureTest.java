package dev.cascade.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cascade.core.testkit.ArchitectureRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The structure docs/architecture.md draws, enforced: the facade and the HTTP layer each take the
 * engine and never refer to each other, lower layers never call up, and no public signature names
 * an internal type.
 */
final class ArchitectureTest {

  private static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core = ArchitectureRules.mainClassesOf("dev.cascade.core");
  }

  @Test
  void internal_neverRefersToTheFacade() {
    noClasses()
        .that()
        .resideInAPackage("dev.cascade.core.internal..")
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(Cascade.class, CascadeServer.class)
        .because("the facade and the HTTP layer each take the engine; neither knows the other")
        .check(core);
  }

  @Test
  void publicApi_namesNoInternalType() {
    ArchitectureRules.publicApiNamesNoInternalType().check(core);
  }

  @Test
  void store_callsNoLayerAboveIt() {
    noClasses()
        .that()
        .resideInAPackage("dev.cascade.core.internal.store..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.cascade.core.internal.run..",
            "dev.cascade.core.internal.http..",
            "dev.cascade.core.internal.output..",
            "dev.cascade.core.internal.trace..",
            "dev.cascade.core.internal.events..",
            "dev.cascade.core.internal.results..")
        .because("a repository returns values; the layers above apply them")
        .check(core);
  }

  @Test
  void onlyTheHttpLayerAndTheFacadeKnowTheHttpLayer() {
    noClasses()
        .that()
        .resideInAPackage("dev.cascade.core.internal..")
        .and()
        .resideOutsideOfPackage("dev.cascade.core.internal.http..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.cascade.core.internal.http..")
        .because("runs, traces and output do not know they are served over HTTP")
        .check(core);
  }

  @Test
  void runsNeverReachIntoTheHttpLayerOrTheEngine() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.cascade.core.internal.run..",
            "dev.cascade.core.internal.output..",
            "dev.cascade.core.internal.trace..",
            "dev.cascade.core.internal.events..",
            "dev.cascade.core.internal.results..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.cascade.core.internal.Engine")
        .because("the engine builds the parts; the parts do not know it")
        .check(core);
  }
}
