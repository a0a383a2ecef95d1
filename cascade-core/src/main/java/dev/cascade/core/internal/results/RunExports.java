package dev.cascade.core.internal.results;

import dev.cascade.core.Run;
import dev.cascade.core.RunGetStats;
import dev.cascade.core.Runs;
import dev.cascade.core.SimsCsv;
import java.io.IOException;
import java.io.UncheckedIOException;

/** A run's results in other tools' formats, from its sims' stored kernels and logs. */
final class RunExports {

  private final Runs runs;

  RunExports(Runs runs) {
    this.runs = runs;
  }

  String simsCsv(String runId) {
    Run run = runs.get(runId);
    StringBuilder out = new StringBuilder();
    try {
      SimsCsv.write(run, sim -> runs.kernels(sim.id()), out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not fail
    }
    return out.toString();
  }

  String getStatsCsv(String runId, boolean configsAsRows) {
    Run run = runs.get(runId);
    StringBuilder out = new StringBuilder();
    try {
      RunGetStats.write(run, sim -> runs.log(sim.id()), configsAsRows, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the logs of run " + runId, e);
    }
    return out.toString();
  }
}
