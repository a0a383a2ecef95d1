package dev.cascade.accelsim.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The CSV Accel-Sim's {@code util/job_launching/get_stats.py -k -K} prints, so its companions
 * ({@code merge-stats.py}, {@code plot-get-stats.py}) read Cascade's results as they read the
 * script's. One section per statistic (the build strings first, then the list's statistics in
 * order), each a line of 100 dashes, the statistic's name, a header row and a row per {@code
 * APP/ARGS--KERNEL--INSTANCE} with a column per config ({@code APPS,...}); or, {@code
 * configsAsRows}, a row per config with a column per kernel ({@code CFG,...}, the script's {@code
 * -R}). A missing value is {@code NA}; a blank line ends each section. Build with {@link #add},
 * then {@link #write}. Not thread-safe.
 */
public final class GetStatsTable {

  private static final String DIVISION = "-".repeat(100);
  private static final String ALL_KERNELS = "all_kernels";

  private final GetStatsList stats;
  private final boolean ignoreFailures;
  private final List<String> apps = new ArrayList<>();
  private final List<String> configs = new ArrayList<>();
  private final Map<String, Set<String>> kernelsByApp = new HashMap<>();
  private final Map<String, String> values = new HashMap<>();

  /**
   * An empty table of {@code stats}; with {@code ignoreFailures} (the script's {@code -I}), the
   * kernels of a log that does not say {@code exit detected} near its end are kept too.
   */
  public GetStatsTable(GetStatsList stats, boolean ignoreFailures) {
    this.stats = Objects.requireNonNull(stats, "stats");
    this.ignoreFailures = ignoreFailures;
  }

  /**
   * Adds the log of {@code app} run with {@code args} on {@code config}, read to its end: its row
   * label is {@code APP/ARGS} ({@code /} in the app replaced by {@code _}, as the script names its
   * run folders). Returns false when the log did not finish ({@code exit detected} is not among its
   * last 9,999 lines): then only its build strings are kept, unless failures are ignored.
   */
  public boolean add(String app, String args, String config, BufferedReader log)
      throws IOException {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(args, "args");
    Objects.requireNonNull(config, "config");
    String appAndArgs = app.replace('/', '_') + "/" + args;
    if (!apps.contains(appAndArgs)) {
      apps.add(appAndArgs);
      kernelsByApp.put(appAndArgs, new LinkedHashSet<>());
    }
    if (!configs.contains(config)) {
      configs.add(config);
    }
    GetStatsLog read = GetStatsLog.read(log, stats);
    read.builds.forEach(
        (build, text) -> values.put(key(ALL_KERNELS, appAndArgs, config, build), text));
    if (!read.exited && !ignoreFailures) {
      return false;
    }
    kernelsByApp.get(appAndArgs).addAll(read.kernels);
    List<String> all = stats.all();
    for (String kernel : read.kernels) {
      for (int i = 0; i < all.size(); i++) {
        String text = read.text(kernel, i);
        if (text != null) {
          values.put(key(kernel, appAndArgs, config, all.get(i)), text);
        }
      }
    }
    return read.exited;
  }

  /** Writes the whole table. */
  public void write(Appendable out, boolean configsAsRows) throws IOException {
    Map<String, Set<String>> buildRows = new LinkedHashMap<>();
    apps.forEach(app -> buildRows.put(app, Set.of(ALL_KERNELS)));
    section(out, GetStatsLog.ACCEL_SIM_BUILD, buildRows, configsAsRows);
    section(out, GetStatsLog.GPGPU_SIM_BUILD, buildRows, configsAsRows);
    Map<String, Set<String>> kernelRows = new LinkedHashMap<>();
    apps.forEach(app -> kernelRows.put(app, kernelsByApp.get(app)));
    for (String stat : stats.all()) {
      section(out, stat, kernelRows, configsAsRows);
    }
  }

  private void section(
      Appendable out, String stat, Map<String, Set<String>> kernels, boolean configsAsRows)
      throws IOException {
    String commas = ",".repeat(configsAsRows ? apps.size() : configs.size());
    out.append(DIVISION).append(commas).append('\n');
    out.append(stat).append(commas).append('\n');
    List<String> labels = new ArrayList<>();
    List<String[]> rowKeys = new ArrayList<>(); // kernel, app
    kernels.forEach(
        (app, names) ->
            names.forEach(
                kernel -> {
                  labels.add(app + "--" + kernel);
                  rowKeys.add(new String[] {kernel, app});
                }));
    if (configsAsRows) {
      out.append(line("CFG", labels));
      for (String config : configs) {
        List<String> cells = new ArrayList<>();
        rowKeys.forEach(k -> cells.add(value(k[0], k[1], config, stat)));
        out.append(line(config, cells));
      }
    } else {
      out.append(line("APPS", configs));
      for (int i = 0; i < labels.size(); i++) {
        String[] k = rowKeys.get(i);
        List<String> cells = new ArrayList<>();
        configs.forEach(config -> cells.add(value(k[0], k[1], config, stat)));
        out.append(line(labels.get(i), cells));
      }
    }
    out.append('\n');
  }

  /** The first cell and the rest, comma-separated as the script writes them: no quoting. */
  private static String line(String first, List<String> cells) {
    StringBuilder line = new StringBuilder(first);
    cells.forEach(cell -> line.append(',').append(cell));
    return line.append('\n').toString();
  }

  private String value(String kernel, String app, String config, String stat) {
    return values.getOrDefault(key(kernel, app, config, stat), "NA");
  }

  private static String key(String kernel, String app, String config, String stat) {
    return kernel + '\u0000' + app + '\u0000' + config + '\u0000' + stat;
  }
}
