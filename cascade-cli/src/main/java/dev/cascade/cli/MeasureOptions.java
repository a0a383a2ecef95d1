package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.GetStatsMeasures;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import dev.cascade.core.Run;
import dev.cascade.core.Runs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The {@code --measure NAME} and {@code --measures-from FILE} options of {@code run} and {@code
 * runs results}, read once.
 */
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

  /**
   * The measure set of an Accel-Sim stats file ({@code example_stats.yml}), read before anything
   * runs; null without the option.
   *
   * @throws ParameterException (exit 2) naming the option and the file when it cannot be read
   */
  static GetStatsMeasures readSet(CommandSpec spec, Path file) {
    if (file == null) {
      return null;
    }
    try {
      return GetStatsMeasures.read(file);
    } catch (IOException e) {
      throw new ParameterException(
          spec.commandLine(), "--measures-from: cannot read \"" + file + "\": " + e);
    } catch (CascadeException e) {
      throw new ParameterException(spec.commandLine(), "--measures-from: " + e.getMessage());
    }
  }

  /**
   * {@code measures} and, after them, the set's measures whose statistic the run's first finished
   * kernel printed; each one dropped is said on {@code notes}.
   */
  static List<Measure> withSet(
      List<Measure> measures, GetStatsMeasures set, Runs runs, Run run, PrintWriter notes) {
    if (set == null) {
      return measures;
    }
    List<String> statistics =
        run.sims().stream()
            .filter(sim -> sim.progress().kernelsDone() > 0)
            .findFirst()
            .map(sim -> runs.kernels(sim.id()))
            .filter(kernels -> !kernels.isEmpty())
            .map(kernels -> List.copyOf(kernels.getFirst().stats().keySet()))
            .orElse(List.of());
    GetStatsMeasures kept = statistics.isEmpty() ? set : set.keptBy(statistics);
    for (String note : kept.notes()) {
      notes.println("--measures-from: " + note);
    }
    notes.flush();
    List<Measure> all = new ArrayList<>(measures);
    kept.measures().stream().filter(measure -> !all.contains(measure)).forEach(all::add);
    return List.copyOf(all);
  }
}
