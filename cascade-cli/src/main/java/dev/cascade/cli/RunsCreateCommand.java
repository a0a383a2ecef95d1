package dev.cascade.cli;

import dev.cascade.core.Run;
import dev.cascade.core.json.ApiJson;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cascade runs create TRACE CONFIG:COUNT...}: starts a run on a running Cascade. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = {
      "Create a run: the trace TRACE on each GPU config CONFIG, COUNT replicas of each (1 to 64;"
          + " a bare CONFIG is one). The server launches the sims in the background.",
      "Exit code 0 when created (with --watch: when every sim succeeded), 1 when the server"
          + " refused it or could not be asked, 2 on a usage error."
    })
final class RunsCreateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Mixin RunRequestArguments request;

  @Option(names = "--json", description = "Print the created run as the API's JSON.")
  boolean json;

  @Option(
      names = "--watch",
      description = "Then follow the run as `cascade runs watch` does, until it finishes.")
  boolean watch;

  @Option(
      names = "--plain",
      description =
          "With --watch: append a line whenever a sim changes instead of redrawing in place (the"
              + " default when stdout is not a terminal).")
  boolean plain;

  @Override
  public Integer call() throws InterruptedException {
    if (json && watch) {
      throw new ParameterException(
          spec.commandLine(), "--json and --watch cannot go together; create, then watch");
    }
    return api.call(
        client -> {
          Run run = client.runs().create(request.trace, request.runEntries(), request.options());
          PrintWriter out = spec.commandLine().getOut();
          if (json) {
            return Printed.answer(spec, true, ApiJson.writeRun(run, Instant.now()), null);
          }
          out.println(
              "Created run "
                  + run.id()
                  + " on trace "
                  + run.traceId()
                  + ": "
                  + Printed.count(run.sims().size(), "sim")
                  + " ("
                  + Printed.entries(run.entries())
                  + ")");
          if (request.owner != null && !request.owner.equals(run.owner())) {
            out.println(
                "The run is "
                    + run.owner()
                    + "'s, not "
                    + request.owner
                    + "'s: a run belongs to the user whose token created it, and only an admin"
                    + " may name another owner");
          }
          if (!watch) {
            out.println("Watch it with: cascade runs watch " + run.id());
            out.flush();
            return 0;
          }
          out.flush();
          boolean interactive = !plain && RunWatcher.isTerminal();
          return new RunWatcher(client, run.id(), out, interactive).watch();
        });
  }
}
