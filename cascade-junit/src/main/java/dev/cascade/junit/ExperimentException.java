package dev.cascade.junit;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.util.Optional;

/**
 * An experiment's run did not give results to assert on: it did not finish in time (it is then
 * cancelled), or some of its sims failed or were cancelled. The message says which sims and why;
 * {@link #run()} holds what results there are.
 */
public final class ExperimentException extends CascadeException {

  private final transient ExperimentRun run;

  ExperimentException(ErrorCode code, String message, ExperimentRun run) {
    super(code, message);
    this.run = run;
  }

  /** The run as it ended, with the results of the replicas that succeeded; empty if unknown. */
  public Optional<ExperimentRun> run() {
    return Optional.ofNullable(run);
  }
}
