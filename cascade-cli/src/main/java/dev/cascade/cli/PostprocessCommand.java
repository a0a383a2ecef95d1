package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cascade postprocess}: not built yet. */
@Command(
    name = "postprocess",
    mixinStandardHelpOptions = true,
    description =
        "Raw traces (.trace) to .traceg and kernelslist.g, as Accel-Sim's post-processor writes them.")
final class PostprocessCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cascade postprocess: not built yet");
    return 1;
  }
}
