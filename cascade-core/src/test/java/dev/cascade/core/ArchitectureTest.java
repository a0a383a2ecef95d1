package dev.cascade.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cascade.core.testkit.ArchitectureRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The structure docs/architecture.md draws, enforced: the facade and the HTTP layer each take the
 * engine and never refer to each other, lower layers never call up, and no public signature names
 * an internal type. {@code ArchitectureRulesTest} breaks each rule on purpose.
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
  void storeAndCatalog_reachNothingAbove() {
    ArchitectureRules.storeAndCatalogReachNothingAbove().check(core);
  }

  @Test
  void onlyTheHttpLayerAndItsPublicFace_knowTheHttpLayer() {
    ArchitectureRules.onlyTheHttpLayerAndItsPublicFaceKnowIt().check(core);
  }

  @Test
  void partsNeverKnowTheEngine() {
    ArchitectureRules.partsDoNotKnowTheEngine().check(core);
  }
}
