package dev.cascade.junit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a {@link CascadeExperiment} asks for, after the JUnit configuration parameters that override
 * it ({@code cascade.launcher}, {@code cascade.accelsim}, {@code cascade.server}, {@code
 * cascade.token}, {@code cascade.timeout.seconds}).
 *
 * @param accelSim a built Accel-Sim's folder; empty for the emulator
 * @param server a running Cascade's URL; empty for an embedded one
 * @param token the running Cascade's user token; null for none
 */
record ExperimentSettings(
    List<String> traces,
    String launcher,
    String accelSim,
    String server,
    String token,
    Duration timeout) {

  static final String LAUNCHER = "cascade.launcher";
  static final String ACCELSIM = "cascade.accelsim";
  static final String SERVER = "cascade.server";
  static final String TOKEN = "cascade.token";
  static final String TIMEOUT = "cascade.timeout.seconds";

  ExperimentSettings {
    traces = List.copyOf(traces);
    if (launcher.isBlank()) {
      throw new IllegalArgumentException(
          "@CascadeExperiment(launcher) must name a launcher, such as \"local\"; got a blank one");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          "@CascadeExperiment(timeoutSeconds) must be positive; got " + timeout.toSeconds());
    }
    if (!accelSim.isBlank() && !server.isBlank()) {
      throw new IllegalArgumentException(
          "@CascadeExperiment: accelSim (\""
              + accelSim
              + "\") and server (\""
              + server
              + "\") cannot both be set: a running server runs its own simulator");
    }
  }

  /**
   * The annotation's settings, each replaced by its configuration parameter when that is set and
   * not blank; the token from {@code cascade.token}, else {@code CASCADE_TOKEN}.
   */
  static ExperimentSettings of(
      CascadeExperiment annotation,
      Function<String, Optional<String>> parameters,
      Map<String, String> environment) {
    String timeoutText = parameter(parameters, TIMEOUT).orElse(null);
    long seconds = annotation.timeoutSeconds();
    if (timeoutText != null) {
      try {
        seconds = Long.parseLong(timeoutText);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            TIMEOUT + " must be a whole number of seconds; got \"" + timeoutText + "\"", e);
      }
    }
    return new ExperimentSettings(
        List.of(annotation.traces()),
        parameter(parameters, LAUNCHER).orElse(annotation.launcher()).strip(),
        parameter(parameters, ACCELSIM).orElse(annotation.accelSim()).strip(),
        parameter(parameters, SERVER).orElse(annotation.server()).strip(),
        parameter(parameters, TOKEN).orElse(environment.get("CASCADE_TOKEN")),
        Duration.ofSeconds(seconds));
  }

  boolean remote() {
    return !server.isBlank();
  }

  private static Optional<String> parameter(
      Function<String, Optional<String>> parameters, String name) {
    return parameters.apply(name).filter(value -> !value.isBlank());
  }
}
