package dev.cascade.junit;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs a sample test class the way a user's build would, inside a test, to check what the extension
 * makes of it. Sample classes carry {@link OnlyInTestKit}, so they never run on their own.
 */
final class TestKit {

  static final String PARAMETER = "cascade.junit.testkit";

  private TestKit() {}

  static EngineExecutionResults run(Class<?> sample, Map<String, String> parameters) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(DiscoverySelectors.selectClass(sample))
        .configurationParameter(PARAMETER, "true")
        .configurationParameters(parameters)
        .execute();
  }

  static EngineExecutionResults run(Class<?> sample) {
    return run(sample, Map.of());
  }

  /** Why the sample class failed as a whole (its set-up); empty when it did not. */
  static Optional<Throwable> classFailure(EngineExecutionResults results, Class<?> sample) {
    return results.containerEvents().failed().stream()
        .filter(
            event -> event.getTestDescriptor().getLegacyReportingName().equals(sample.getName()))
        .map(Event::getPayload)
        .flatMap(Optional::stream)
        .map(TestExecutionResult.class::cast)
        .map(TestExecutionResult::getThrowable)
        .flatMap(Optional::stream)
        .findFirst();
  }

  /** Why the sample's one test failed; empty when it did not. */
  static Optional<Throwable> testFailure(EngineExecutionResults results) {
    return results.testEvents().failed().stream()
        .map(Event::getPayload)
        .flatMap(Optional::stream)
        .map(TestExecutionResult.class::cast)
        .map(TestExecutionResult::getThrowable)
        .flatMap(Optional::stream)
        .findFirst();
  }

  /** Keeps a sample class from running except through {@link TestKit#run}. */
  static final class OnlyInTestKit implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(PARAMETER).isPresent()
          ? ConditionEvaluationResult.enabled("run by TestKit")
          : ConditionEvaluationResult.disabled("a sample for TestKit, not a test of its own");
    }
  }
}
