package dev.cascade.cli;

import dev.cascade.agent.SimAgentMain;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cascade sim-agent [options] -- CMD...}: the sim side of the contract (DESIGN.md section
 * 7). Its arguments go to the agent unparsed: it reads its own options, and everything after {@code
 * --} is the simulator's command line.
 */
@Command(
    name = "sim-agent",
    modelTransformer = SimAgentCommand.RawArguments.class,
    description = {
      "Run a simulator for a Cascade sim and report to the app: its output as numbered chunks"
          + " (spooled to disk, retried with backoff while the app is away, never dropped),"
          + " heartbeats every 2 s, and the final state, succeeded or failed (Accel-Sim's failure"
          + " lines count even with exit code 0). cancel: true or SIGTERM stops the simulator's"
          + " whole process group.",
      "'cascade emulate ...' as CMD, or --emulate [emulator options], runs the emulator inside"
          + " the agent's JVM. 'cascade sim-agent --help' lists the agent's options.",
      "Exit codes: 0 succeeded, 1 failed, 2 usage, 3 cancelled or SIGTERM, 4 gave up reaching"
          + " the app, 5 refused by the app."
    })
final class SimAgentCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "ARGS",
      description = "[options] -- CMD [ARGS...], or [options] --emulate [emulator options].")
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    PrintStream out =
        new PrintStream(new EmulateCommand.WriterOutputStream(spec.commandLine().getOut()), true);
    PrintStream err =
        new PrintStream(new EmulateCommand.WriterOutputStream(spec.commandLine().getErr()), true);
    int code =
        SimAgentMain.run(args, CliEnvironment.current(), out, err, SimAgentMain.Hooks.RUNTIME);
    out.flush();
    err.flush();
    return code;
  }

  /** Hands every argument, {@code --} and {@code --help} included, to the agent as it is. */
  static final class RawArguments implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      spec.parser()
          .unmatchedOptionsArePositionalParams(true)
          .endOfOptionsDelimiter("\u0000--no-end-of-options")
          .stopAtPositional(true);
      return spec;
    }
  }
}
