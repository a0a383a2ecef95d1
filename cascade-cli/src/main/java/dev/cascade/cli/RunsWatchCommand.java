package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade runs watch ID}: a live view of a run until it finishes. */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    description = {
      "Follow a run live until every sim has finished: one line per sim with a progress bar of"
          + " kernels done / total, its state and heartbeat age, redrawn in place on a terminal"
          + " (a line per change otherwise). A run of more than 16 sims shows one line per"
          + " config instead: its counts by state, kernels done / total and the latest estimated"
          + " finish. A dropped event stream is resumed where it stopped."
          + " Ctrl-C stops watching; the run goes on.",
      "Exit code 0 when the run succeeded, 1 when it ended otherwise (partial, failed,"
          + " cancelled) or the server could not be asked, 2 on a usage error."
    })
final class RunsWatchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id.")
  String id;

  @Option(
      names = "--plain",
      description =
          "Append a line whenever a sim changes instead of redrawing in place (the default when"
              + " stdout is not a terminal).")
  boolean plain;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    boolean interactive = !plain && RunWatcher.isTerminal();
    return api.call(
        client -> new RunWatcher(client, runId, spec.commandLine().getOut(), interactive).watch());
  }
}
