package dev.cascade.core.spi;

import dev.cascade.core.FailureClass;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import java.util.List;

/**
 * A simulator Cascade reads: how its output becomes kernel records, the measures it offers, and how
 * its failures are classed. Accel-Sim (and Cascade's emulator of it, which prints the same output)
 * is the built-in one, {@code accel-sim}; another is found like launchers are ({@link
 * dev.cascade.core.Simulators#byName}) or handed to the builder.
 *
 * <p>Core works on what the parser reports: kernels with a name, an instance, their own cycles and
 * instructions, and every value the simulator printed for them by name. Results, comparisons,
 * exports and any statistic asked for by name ({@link Measures#parse}) follow from those.
 */
public interface Simulator {

  /** The simulator's name, as {@code --simulator} and errors spell it ({@code accel-sim}). */
  String name();

  /**
   * A new parser for one sim's output, reporting to {@code listener} as bytes are fed. One parser
   * reads one log from its first byte, fed in chunks that may split a line anywhere.
   */
  OutputParser parser(OutputListener listener);

  /** The measures results compare by default for this simulator's runs. */
  default List<Measure> measures() {
    return Measures.DEFAULTS;
  }

  /**
   * Why a failed sim failed, from its {@code error}, its exit status (null when none) and the last
   * {@code logLines} of its output; by default {@link FailureClass#classify}.
   */
  default FailureClass classify(String error, Integer exitCode, List<String> logLines) {
    return FailureClass.classify(error, exitCode, logLines);
  }
}
