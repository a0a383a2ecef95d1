package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The {@code --measure NAME} options of {@code run} and {@code runs results}, read once. */
final class MeasureOptions {

  private MeasureOptions() {}

  /**
   * The measures named, checked for form before anything runs (whether a run printed the statistic
   * is known only once it has kernels).
   *
   * @throws ParameterException (exit 2) naming the option and the value for a name that is no
   *     measure's
   */
  static List<Measure> parse(CommandSpec spec, List<String> names) {
    try {
      return Measures.parseAll(names);
    } catch (CascadeException e) {
      throw new ParameterException(
          spec.commandLine(), "--measure: " + e.getMessage().replaceFirst("^measures: ", ""));
    }
  }
}
