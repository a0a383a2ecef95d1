package dev.cascade.core.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;

/** The module rules of docs/architecture.md, for every module's own architecture test. */
public final class ArchitectureRules {

  private static final String INTERNAL = "dev.cascade.core.internal";

  private ArchitectureRules() {}

  /** The main classes (not tests) under {@code rootPackage}, as the build compiled them. */
  public static JavaClasses mainClassesOf(String rootPackage) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(rootPackage);
  }

  /**
   * Code outside cascade-core uses its public API only, never {@code dev.cascade.core.internal}.
   */
  public static ArchRule noUseOfCoreInternals() {
    return noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage(INTERNAL + "..")
        .because("other modules use core's public API (dev.cascade.core, .spi, .json) only");
  }

  /**
   * No public method, constructor or field of a public class outside {@code internal} takes,
   * returns or holds an internal type, as itself, an array's element or a type argument ({@code
   * List<Engine>}): public signatures are public API all the way down.
   */
  public static ArchRule publicApiNamesNoInternalType() {
    return members()
        .that(publicApiMember())
        .should(nameNoInternalType())
        .because("an embedder must be able to call every public signature");
  }

  private static DescribedPredicate<JavaMember> publicApiMember() {
    return DescribedPredicate.describe(
        "are public members of public classes outside internal",
        member ->
            member.getModifiers().contains(JavaModifier.PUBLIC)
                && isPublicApiClass(member.getOwner()));
  }

  private static boolean isPublicApiClass(JavaClass owner) {
    for (JavaClass type = owner; type != null; type = type.getEnclosingClass().orElse(null)) {
      if (!type.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return !owner.getPackageName().startsWith(INTERNAL);
  }

  private static ArchCondition<JavaMember> nameNoInternalType() {
    return new ArchCondition<>("name no internal type") {
      @Override
      public void check(JavaMember member, ConditionEvents events) {
        // Every type a signature names, type arguments included: List<Engine> names Engine.
        List<JavaClass> named = new ArrayList<>();
        if (member instanceof JavaCodeUnit code) {
          code.getParameterTypes().forEach(type -> named.addAll(type.getAllInvolvedRawTypes()));
          named.addAll(code.getReturnType().getAllInvolvedRawTypes());
        } else if (member instanceof JavaField field) {
          named.addAll(field.getType().getAllInvolvedRawTypes());
        }
        for (JavaClass type : named) {
          JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
          if (base.getPackageName().startsWith(INTERNAL)) {
            events.add(
                SimpleConditionEvent.violated(
                    member, member.getFullName() + " names the internal type " + base.getName()));
          }
        }
      }
    };
  }
}
