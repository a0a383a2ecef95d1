package dev.cascade.accelsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.cascade.accelsim.rulebreakers.ReachesOutside;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * cascade-accelsim, Accel-Sim's formats, is the lowest layer: it depends on nothing of Cascade's
 * but itself (not the agent, core or the API), and on the JDK, xz and zstd-jni only.
 */
final class ArchitectureTest {

  /** The packages this module may use: its own, the JDK's and the libraries it ships with. */
  static final List<String> ALLOWED =
      List.of(
          "java.", "javax.", "dev.cascade.accelsim.", "org.tukaani.xz.", "com.github.luben.zstd.");

  @Test
  void mainCode_usesOnlyWhatItShipsWith() {
    JavaClasses main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.cascade.accelsim");

    assertThat(main).isNotEmpty();
    usesOnlyWhatItShipsWith().check(main);
  }

  @Test
  void rule_seesAClassReachOutside() {
    // Breaks the rule on purpose: a class of this module that uses a library it does not ship with.
    JavaClasses breaker = new ClassFileImporter().importClasses(ReachesOutside.class);

    assertThat(usesOnlyWhatItShipsWith().evaluate(breaker).getFailureReport().getDetails())
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).contains("Assertions"));
  }

  static ArchRule usesOnlyWhatItShipsWith() {
    return classes()
        .should()
        .onlyDependOnClassesThat(
            DescribedPredicate.describe(
                "are accelsim's, the JDK's, xz's or zstd-jni's",
                (JavaClass type) -> {
                  JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
                  return base.isPrimitive()
                      || ALLOWED.stream().anyMatch(prefix -> base.getName().startsWith(prefix));
                }))
        .because(
            "Accel-Sim's formats are the lowest layer: the agent and core use them, never the other way");
  }
}
