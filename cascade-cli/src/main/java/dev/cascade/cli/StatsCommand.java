package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cascade stats}: not built yet. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = "Parse Accel-Sim simulator output offline.")
final class StatsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cascade stats: not built yet");
    return 1;
  }
}
