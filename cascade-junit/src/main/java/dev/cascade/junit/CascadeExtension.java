package dev.cascade.junit;

import dev.cascade.core.Cascade;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The extension behind {@link CascadeExperiment}; use the annotation rather than this class.
 *
 * <p>Before the class's first test (or when its test instance is made, whichever comes first) it
 * starts the Cascade the annotation asks for and keeps it in the class's {@link
 * ExtensionContext.Store}, which closes it after the class's last test. Tests of the class and of
 * its {@code Nested} classes share it. It then hands it out:
 *
 * <ul>
 *   <li>to parameters of type {@link Experiment} or {@link Cascade}, in constructors, test methods
 *       and lifecycle methods;
 *   <li>to fields of those types that are not final and still null: static ones before the class's
 *       first test, instance ones when a test instance is made.
 * </ul>
 *
 * <p>A {@link Cascade} exists only when the experiment runs embedded; with {@link
 * CascadeExperiment#server()} asking for one is an error that says so.
 */
public final class CascadeExtension
    implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(CascadeExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    ExperimentEnvironment environment = environment(context);
    inject(context.getRequiredTestClass(), null, environment);
  }

  @Override
  public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
    inject(testInstance.getClass(), testInstance, environment(context));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Experiment.class || type == Cascade.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExperimentEnvironment environment = environment(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == Experiment.class) {
      return environment.experiment();
    }
    return environment
        .cascade()
        .orElseThrow(
            () ->
                new ParameterResolutionException(
                    noEmbeddedCascade(
                        "parameter \""
                            + parameter.getParameter().getName()
                            + "\" of "
                            + parameter.getDeclaringExecutable(),
                        environment)));
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * The environment of the nearest enclosing class context whose class carries the annotation,
   * started there the first time it is asked for.
   */
  private static ExperimentEnvironment environment(ExtensionContext context) {
    ExtensionContext owner = context;
    Optional<CascadeExperiment> annotation = Optional.empty();
    for (Optional<ExtensionContext> at = Optional.of(context); at.isPresent(); ) {
      ExtensionContext candidate = at.get();
      if (candidate.getTestMethod().isEmpty() && candidate.getTestClass().isPresent()) {
        annotation =
            AnnotationSupport.findAnnotation(
                candidate.getTestClass().get(), CascadeExperiment.class);
        if (annotation.isPresent()) {
          owner = candidate;
          break;
        }
      }
      at = candidate.getParent();
    }
    if (annotation.isEmpty()) {
      throw new ExtensionConfigurationException(
          "CascadeExtension needs @CascadeExperiment on the test class (or an enclosing one);"
              + " annotate the class with @CascadeExperiment instead of"
              + " @ExtendWith(CascadeExtension.class)");
    }
    CascadeExperiment settings = annotation.get();
    ExtensionContext store = owner;
    return store
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            ExperimentEnvironment.class,
            key ->
                ExperimentEnvironment.start(
                    ExperimentSettings.of(
                        settings, store::getConfigurationParameter, System.getenv())),
            ExperimentEnvironment.class);
  }

  /**
   * Sets the null, non-final fields of type Experiment or Cascade: static ones or instance ones.
   */
  private static void inject(Class<?> type, Object instance, ExperimentEnvironment environment) {
    List<Field> fields =
        ReflectionSupport.findFields(
            type,
            field ->
                (field.getType() == Experiment.class || field.getType() == Cascade.class)
                    && !Modifier.isFinal(field.getModifiers())
                    && Modifier.isStatic(field.getModifiers()) == (instance == null),
            HierarchyTraversalMode.TOP_DOWN);
    for (Field field : fields) {
      try {
        field.setAccessible(true);
        if (field.get(instance) != null) {
          continue;
        }
        Object value =
            field.getType() == Experiment.class
                ? environment.experiment()
                : environment
                    .cascade()
                    .orElseThrow(
                        () ->
                            new ExtensionConfigurationException(
                                noEmbeddedCascade(
                                    "field "
                                        + field.getDeclaringClass().getSimpleName()
                                        + "."
                                        + field.getName(),
                                    environment)));
        field.set(instance, value);
      } catch (IllegalAccessException e) {
        throw new ExtensionConfigurationException(
            "cannot set field "
                + field.getDeclaringClass().getName()
                + "."
                + field.getName()
                + " to the experiment's "
                + field.getType().getSimpleName(),
            e);
      }
    }
  }

  private static String noEmbeddedCascade(String what, ExperimentEnvironment environment) {
    return "cannot inject a Cascade into "
        + what
        + ": the experiment runs on "
        + environment.experiment().backendDescription()
        + ", not on an embedded Cascade. Use an Experiment instead, or leave"
        + " @CascadeExperiment(server) and cascade.server empty";
  }
}
