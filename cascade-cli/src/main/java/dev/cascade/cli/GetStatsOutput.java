package dev.cascade.cli;

import dev.cascade.accelsim.stats.GetStatsList;
import dev.cascade.accelsim.stats.GetStatsTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code cascade stats --get-stats}: the files as the rows of one {@code get_stats.py -k -K} table
 * (cascade-accelsim's {@link GetStatsTable}), each file an app on one config.
 */
final class GetStatsOutput {

  @Option(
      names = {"-R", "--configs-as-rows"},
      description = "With --get-stats: configs as rows, kernels as columns (get_stats.py -R).")
  boolean configsAsRows;

  @Option(
      names = "--app",
      paramLabel = "NAME",
      description = "With --get-stats: the app of every file (default the file's name).")
  String app;

  @Option(
      names = "--args",
      paramLabel = "ARGS",
      defaultValue = "NO_ARGS",
      description = "With --get-stats: the args folder name (default ${DEFAULT-VALUE}).")
  String args;

  @Option(
      names = "--config",
      paramLabel = "NAME",
      defaultValue = "cascade",
      description = "With --get-stats: the config column (default ${DEFAULT-VALUE}).")
  String config;

  @Option(
      names = "--stats-yml",
      paramLabel = "FILE",
      description =
          "With --get-stats: the statistics to collect, in example_stats.yml's shape (default"
              + " Accel-Sim's example_stats.yml, built in).")
  Path statsYml;

  @Option(
      names = {"-I", "--ignore-failures"},
      description =
          "With --get-stats: keep the kernels of a log without 'exit detected' (get_stats.py -I).")
  boolean ignoreFailures;

  /** True when an option of this group was given. */
  boolean used() {
    return configsAsRows
        || app != null
        || !"NO_ARGS".equals(args)
        || !"cascade".equals(config)
        || statsYml != null
        || ignoreFailures;
  }

  /**
   * Writes the table of {@code files}; returns 0, or 1 when a file could not be read (named on
   * {@code err}, the others still in the table).
   */
  int write(List<Path> files, PrintWriter out, PrintWriter err) throws IOException {
    GetStatsList stats;
    try {
      stats = statsYml == null ? GetStatsList.ACCEL_SIM_EXAMPLE : GetStatsList.read(statsYml);
    } catch (IOException e) {
      err.println("cascade stats: cannot read --stats-yml '" + statsYml + "': " + e.getMessage());
      return 1;
    } catch (IllegalArgumentException e) {
      err.println("cascade stats: --stats-yml: " + e.getMessage());
      return 2;
    }
    GetStatsTable table = new GetStatsTable(stats, ignoreFailures);
    int exitCode = 0;
    for (Path file : files) {
      String name = app != null ? app : String.valueOf(file.getFileName());
      try (BufferedReader log = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        if (!table.add(name, args, config, log)) {
          err.println(
              "cascade stats: '"
                  + file
                  + "' does not say 'exit detected' near its end: "
                  + (ignoreFailures
                      ? "its numbers may not be final"
                      : "its kernels are left out, as get_stats.py does (-I keeps them)"));
        }
      } catch (IOException e) {
        err.println("cascade stats: cannot read '" + file + "': " + StatsCommand.reason(e));
        exitCode = 1;
      }
    }
    table.write(out, configsAsRows);
    out.flush();
    return exitCode;
  }
}
