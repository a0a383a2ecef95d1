package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.cascade.core.rulebreakers.InternalInTypeArgument;
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
}
