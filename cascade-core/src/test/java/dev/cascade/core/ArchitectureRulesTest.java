package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.cascade.core.internal.catalog.rulebreakers.CatalogReachingTheEngine;
import dev.cascade.core.internal.store.rulebreakers.StoreReachingUp;
import dev.cascade.core.rulebreakers.InternalInTypeArgument;
import dev.cascade.core.rulebreakers.PublicClassReachingHttp;
import dev.cascade.core.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The architecture rules fail on code that breaks them on purpose: a rule nobody saw fail may not
 * hold.
 */
final class ArchitectureRulesTest {

  @Test
  void publicApiNamesNoInternalType_seesAnInternalTypeInATypeArgument() {
    JavaClasses breaker = new ClassFileImporter().importClasses(InternalInTypeArgument.class);

    EvaluationResult result = ArchitectureRules.publicApiNamesNoInternalType().evaluate(breaker);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anySatisfy(line -> assertThat(line).contains("engines()").contains("Engine"))
        .anySatisfy(line -> assertThat(line).contains("take(").contains("Engine"));
  }

  @Test
  void noUseOfCoreInternals_seesAnImportOfAnInternalType() {
    JavaClasses breaker = new ClassFileImporter().importClasses(InternalInTypeArgument.class);

    assertThat(ArchitectureRules.noUseOfCoreInternals().evaluate(breaker).hasViolation()).isTrue();
  }

  @Test
  void storeAndCatalogReachNothingAbove_seesTheStoreAndTheCatalogReachUp() {
    JavaClasses breakers =
        new ClassFileImporter()
            .importClasses(StoreReachingUp.class, CatalogReachingTheEngine.class);

    EvaluationResult result =
        ArchitectureRules.storeAndCatalogReachNothingAbove().evaluate(breakers);

    assertThat(result.getFailureReport().getDetails())
        .anySatisfy(line -> assertThat(line).contains("StoreReachingUp").contains("Engine"))
        .anySatisfy(line -> assertThat(line).contains("StoreReachingUp").contains("SimTokens"))
        .anySatisfy(
            line -> assertThat(line).contains("CatalogReachingTheEngine").contains("Engine"));
  }

  @Test
  void partsDoNotKnowTheEngine_seesAPartThatDoes() {
    JavaClasses breakers =
        new ClassFileImporter()
            .importClasses(StoreReachingUp.class, CatalogReachingTheEngine.class);

    assertThat(ArchitectureRules.partsDoNotKnowTheEngine().evaluate(breakers).hasViolation())
        .isTrue();
  }

  @Test
  void onlyTheHttpLayerAndItsPublicFaceKnowIt_seesAPublicClassCallIt() {
    JavaClasses breaker = new ClassFileImporter().importClasses(PublicClassReachingHttp.class);

    EvaluationResult result =
        ArchitectureRules.onlyTheHttpLayerAndItsPublicFaceKnowIt().evaluate(breaker);

    assertThat(result.getFailureReport().getDetails())
        .anySatisfy(
            line -> assertThat(line).contains("PublicClassReachingHttp").contains("HttpApi"));
  }
}
