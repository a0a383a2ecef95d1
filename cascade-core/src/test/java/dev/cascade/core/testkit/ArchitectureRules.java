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

  /** The packages above the store and the catalog: they use them, never the other way round. */
  private static final String[] ABOVE_STORE_AND_CATALOG = {
    INTERNAL + ".run..",
    INTERNAL + ".http..",
    INTERNAL + ".output..",
    INTERNAL + ".trace..",
    INTERNAL + ".events..",
    INTERNAL + ".results..",
    INTERNAL + ".demo..",
    INTERNAL + ".accelsim.."
  };

  /**
   * {@code internal.store} and {@code internal.catalog} reach neither the engine nor any layer
   * above them, nor the facade: a repository or a catalog returns values, the layers above apply
   * them.
   */
  public static ArchRule storeAndCatalogReachNothingAbove() {
    return noClasses()
        .that()
        .resideInAnyPackage(INTERNAL + ".store..", INTERNAL + ".catalog..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(ABOVE_STORE_AND_CATALOG)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName(INTERNAL + ".Engine")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.cascade.core.Cascade")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.cascade.core.CascadeServer")
        .because("a repository or a catalog returns values; the layers above apply them");
  }

  /**
   * No part the engine builds (any package under {@code internal} but the HTTP layer, which takes
   * the engine as the facade does) knows the engine.
   */
  public static ArchRule partsDoNotKnowTheEngine() {
    return noClasses()
        .that()
        .resideInAPackage(INTERNAL + ".*..")
        .and()
        .resideOutsideOfPackage(INTERNAL + ".http..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(INTERNAL + ".Engine")
        .because("the engine builds the parts; the parts do not know it");
  }

  /**
   * No class outside {@code internal.http}, public or not, reaches the HTTP layer, except {@code
   * CascadeServer}, its public face: runs, traces, output and the facade do not know they are
   * served over HTTP.
   */
  public static ArchRule onlyTheHttpLayerAndItsPublicFaceKnowIt() {
    return noClasses()
        .that()
        .resideOutsideOfPackage(INTERNAL + ".http..")
        .and()
        .doNotHaveFullyQualifiedName("dev.cascade.core.CascadeServer")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(INTERNAL + ".http..")
        .because("only CascadeServer, the HTTP layer's public face, starts and holds it");
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
