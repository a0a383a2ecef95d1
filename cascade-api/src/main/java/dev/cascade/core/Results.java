package dev.cascade.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A run's results: per GPU config, per kernel and for the whole trace, the cycles, instructions,
 * IPC and simulated time ({@code cycles / core clock}) of its succeeded replicas, with their mean,
 * standard deviation, minimum and maximum ({@link Spread}). A run still going shows what it has so
 * far. {@link Speedups#against} compares them with a baseline config; {@link #correlate} with what
 * the GPU measured.
 *
 * <pre>{@code
 * for (ConfigResult config : cascade.results().compare(runId)) {
 *   System.out.println(config.gpuConfig() + ": " + config.total().cycles().mean() + " cycles");
 * }
 * }</pre>
 */
public interface Results {

  /**
   * The measures results compare when a request names none: the simulator's ({@link
   * dev.cascade.core.spi.Simulator#measures()}), the four defaults first.
   */
  default List<Measure> measures() {
    return Measures.DEFAULTS;
  }

  /**
   * The run's results, one per entry, in the run's entry order. Only succeeded sims count, except
   * that while the run is active each kernel's row also counts the sims still running that have
   * finished it ({@link PartialResults}); a config none of whose sims succeeded is still listed,
   * with empty spreads.
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  List<ConfigResult> compare(String runId);

  /** {@link #compare(String)} of a run just read, which need not be read again. */
  default List<ConfigResult> compare(Run run) {
    return compare(run.id());
  }

  /**
   * {@link #compare(String)} with, in each kernel's and total's {@link
   * KernelComparison#measures()}, the spread of every measure of {@code measures} beyond the
   * defaults ({@link Measures#parse}: any statistic the simulator printed, by its own name).
   *
   * @throws CascadeException {@code not_found} when there is no such run; {@code invalid} naming
   *     {@code measures} when no finished kernel of the run printed a statistic asked for
   */
  List<ConfigResult> compare(String runId, List<Measure> measures);

  /** {@link #compare(String, List)} of a run just read. */
  default List<ConfigResult> compare(Run run, List<Measure> measures) {
    return compare(run.id(), measures);
  }

  /**
   * The run's simulated kernels against what the GPU measured for its trace (a Nsight Compute CSV
   * in the trace's {@code hardware/} folder or given to the API), per config of the trace's own
   * architecture, paired by launch order; with no configs and a note saying why when the trace
   * carries no measurements or the run has no config of its architecture.
   *
   * @throws CascadeException {@code not_found} when there is no such run, {@code invalid} when the
   *     trace's CSV cannot be read (the message names {@code file:line})
   */
  HardwareCorrelation correlate(String runId);

  /**
   * The run's results as CSV ({@link ResultsCsv#write}).
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  default String csv(String runId) {
    return csv(runId, null);
  }

  /**
   * The run's results as CSV with speedups over {@code baseline} (the first config when null).
   *
   * @throws CascadeException {@code not_found} when there is no such run, {@code invalid} when
   *     {@code baseline} is not one of its configs
   */
  default String csv(String runId, String baseline) {
    StringBuilder out = new StringBuilder();
    try {
      ResultsCsv.write(compare(runId), baseline, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not fail
    }
    return out.toString();
  }

  /**
   * The run's results as CSV with speedups over {@code baseline} and, after the usual columns, the
   * columns of each of {@code measures} beyond the defaults ({@link ResultsCsv#write(List, String,
   * List, Appendable)}).
   *
   * @throws CascadeException {@code not_found} when there is no such run, {@code invalid} when
   *     {@code baseline} is not one of its configs or no kernel printed a statistic asked for
   */
  default String csv(String runId, String baseline, List<Measure> measures) {
    StringBuilder out = new StringBuilder();
    try {
      ResultsCsv.write(compare(runId, measures), baseline, measures, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not fail
    }
    return out.toString();
  }

  /**
   * The run's tidy CSV, one row per sim and finished kernel with every numeric statistic as a
   * column ({@link SimsCsv#write}).
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  String simsCsv(String runId);

  /**
   * The run's succeeded sims in the CSV layout of Accel-Sim's {@code get_stats.py -k -K} ({@link
   * RunGetStats#write}); with {@code configsAsRows}, that of its {@code -R}.
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  String getStatsCsv(String runId, boolean configsAsRows);
}
