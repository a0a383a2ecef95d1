package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cascade configs}: not built yet. */
@Command(name = "configs", mixinStandardHelpOptions = true, description = "The GPU config catalog.")
final class ConfigsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cascade configs: not built yet");
    return 1;
  }
}
