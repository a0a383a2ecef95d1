package dev.cascade.cli;

import dev.cascade.core.LogCollection;
import dev.cascade.core.json.StorageJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cascade gc --older-than 30d}: drops old runs' logs on a running server. */
@Command(
    name = "gc",
    mixinStandardHelpOptions = true,
    description = {
      "Drop the logs of finished runs created longer ago than --older-than, on the server at"
          + " CASCADE_URL. Their results (kernels, statistics, comparisons) stay; their logs can no"
          + " longer be downloaded. Also removes the kernel-window folders of finished sims, then"
          + " shrinks the database file. The server's CASCADE_LOG_RETENTION does the same every"
          + " hour.",
      "Exit code 0 when done, 1 when the server could not be asked, 2 on a usage error."
    })
final class GcCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Option(
      names = "--older-than",
      required = true,
      paramLabel = "AGE",
      description =
          "Age of the runs whose logs to drop: 30d, 12h, 1d12h, 90m, or 0 (all finished).")
  String olderThan;

  @Option(names = "--json", description = "Print what was dropped as the API's JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    try {
      LogCollection.parseAge(olderThan);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--older-than " + e.getMessage());
    }
    return api.call(
        client -> {
          LogCollection dropped = client.collectLogs(olderThan);
          return Printed.answer(
              spec,
              json,
              StorageJson.writeCollection(dropped),
              out ->
                  out.println(
                      "Dropped the logs of "
                          + dropped.sims()
                          + " sims in "
                          + dropped.runs()
                          + " runs created before "
                          + dropped.before()
                          + " ("
                          + Formats.size(dropped.logBytes())
                          + " of log, "
                          + Formats.size(dropped.logStoredBytes())
                          + " stored); removed "
                          + dropped.folders()
                          + " work folders and files. Results are kept."));
        });
  }
}
