package dev.cascade.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.cascade.core.rulebreakers.ReachesOutsideTheApi;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * cascade-api depends on nothing of Cascade's but itself: its classes use the JDK, Jackson and each
 * other only, so a client of a server pulls no store, server or simulator. The pom already leaves
 * the rest off the class path; this holds when someone adds a dependency there.
 */
final class ApiArchitectureTest {

  @Test
  void api_dependsOnItselfTheJdkAndJacksonOnly() {
    JavaClasses api =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.cascade");

    assertThat(api.contain(Trace.class)).isTrue();
    dependsOnItselfTheJdkAndJacksonOnly(names(api)).check(api);
  }

  @Test
  void rule_seesAClassReachOutsideTheApi() {
    // Breaks the rule on purpose: a class that uses the API (allowed) and another class of
    // Cascade's that is not in it.
    JavaClasses breaker = new ClassFileImporter().importClasses(ReachesOutsideTheApi.class);
    Set<String> own = new HashSet<>(names(breaker));
    own.add(Trace.class.getName());

    EvaluationResult result = dependsOnItselfTheJdkAndJacksonOnly(own).evaluate(breaker);

    assertThat(result.getFailureReport().getDetails())
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).contains("NotInTheApi"));
  }

  static ArchRule dependsOnItselfTheJdkAndJacksonOnly(Set<String> own) {
    return classes()
        .should()
        .onlyDependOnClassesThat(
            DescribedPredicate.describe(
                "are cascade-api's own, the JDK's or Jackson's",
                (JavaClass type) -> {
                  JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
                  String name = base.getName();
                  return base.isPrimitive()
                      || own.contains(name)
                      || name.startsWith("java.")
                      || name.startsWith("javax.")
                      || name.startsWith("com.fasterxml.jackson.");
                }))
        .because("cascade-api is what clients program against: the JDK and Jackson only");
  }

  private static Set<String> names(JavaClasses classes) {
    return classes.stream().map(JavaClass::getName).collect(toSet());
  }
}
