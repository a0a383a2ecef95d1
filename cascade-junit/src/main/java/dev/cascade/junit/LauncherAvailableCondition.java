package dev.cascade.junit;

import dev.cascade.core.Launchers;
import dev.cascade.core.spi.Launcher;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** What {@link EnabledIfLauncherAvailable} asks: is the launcher there, and can it run here? */
final class LauncherAvailableCondition implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<EnabledIfLauncherAvailable> annotation =
        context
            .getElement()
            .flatMap(
                element ->
                    AnnotationSupport.findAnnotation(element, EnabledIfLauncherAvailable.class));
    if (annotation.isEmpty()) {
      return ConditionEvaluationResult.enabled("no @EnabledIfLauncherAvailable");
    }
    return evaluate(annotation.get().value(), Launchers.discover());
  }

  static ConditionEvaluationResult evaluate(String name, List<Launcher> candidates) {
    for (Launcher candidate : candidates) {
      if (candidate.name().equals(name)) {
        Optional<String> reason = candidate.unavailableReason();
        return reason.isEmpty()
            ? ConditionEvaluationResult.enabled("the \"" + name + "\" launcher is available")
            : ConditionEvaluationResult.disabled(
                "the \"" + name + "\" launcher cannot be used here: " + reason.get());
      }
    }
    String found =
        candidates.isEmpty()
            ? "no launchers are on the class path"
            : "launchers found: "
                + candidates.stream()
                    .map(
                        launcher ->
                            launcher.name()
                                + launcher
                                    .unavailableReason()
                                    .map(reason -> " (unavailable: " + reason + ")")
                                    .orElse(" (available)"))
                    .collect(Collectors.joining(", "));
    return ConditionEvaluationResult.disabled(
        "no launcher called \""
            + name
            + "\" is on the class path ("
            + found
            + "); add the module that provides it, such as cascade-sail for \"sail\"");
  }
}
