package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cascade trace-info}: not built yet. */
@Command(
    name = "trace-info",
    mixinStandardHelpOptions = true,
    description = "Kernel count and per-kernel facts of a trace folder.")
final class TraceInfoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cascade trace-info: not built yet");
    return 1;
  }
}
