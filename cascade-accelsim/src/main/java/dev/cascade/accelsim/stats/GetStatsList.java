package dev.cascade.accelsim.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The statistics a {@code get_stats.py} table has, in its stats file's three lists, each a regular
 * expression whose first group is the value. {@code aggregate} statistics run on across kernels and
 * are differenced per kernel; {@code abs} and {@code rates} are taken as printed. The expression's
 * text is also the name of its section in the CSV.
 *
 * @param aggregate {@code collect_aggregate}
 * @param abs {@code collect_abs}
 * @param rates {@code collect_rates}
 */
public record GetStatsList(List<String> aggregate, List<String> abs, List<String> rates) {

  /** Accel-Sim's {@code util/job_launching/stats/example_stats.yml}: what the script reads. */
  public static final GetStatsList ACCEL_SIM_EXAMPLE =
      new GetStatsList(
          List.of(
              "gpu_tot_sim_insn\\s*=\\s*(.*)",
              "gpgpu_simulation_time\\s*=.*\\(([0-9]+) sec\\).*",
              "gpu_tot_sim_cycle\\s*=\\s*(.*)",
              "\\s+L2_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[HIT\\]\\s*=\\s*(.*)",
              "\\s+L2_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[TOTAL_ACCESS\\]\\s*=\\s*(.*)",
              "\\s+L2_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[HIT\\]\\s*=\\s*(.*)",
              "\\s+L2_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[TOTAL_ACCESS\\]\\s*=\\s*(.*)",
              "\\s+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[TOTAL_ACCESS\\]\\s*=\\s*(.*)",
              "\\s+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[HIT\\]\\s*=\\s*(.*)",
              "\\s+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[HIT\\]\\s*=\\s*(.*)",
              "\\s+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_W\\]\\[TOTAL_ACCESS\\]\\s*=\\s*(.*)",
              "\\s+Total_core_cache_stats_breakdown\\[GLOBAL_ACC_R\\]\\[MSHR_HIT\\]\\s*=\\s*(.*)",
              "gpgpu_n_tot_w_icount\\s*=\\s*(.*)",
              "total dram reads\\s*=\\s*(.*)",
              "total dram writes\\s*=\\s*(.*)",
              "kernel_launch_uid\\s*=\\s*(.*)",
              "gpgpu_n_shmem_bkconflict\\s*=\\s*(.*)",
              "gpgpu_n_l1cache_bkconflict\\s*=\\s*(.*)"),
          List.of(
              "gpu_ipc\\s*=\\s*(.*)", "gpu_occupancy\\s*=\\s*(.*)%", "L2_BW\\s*=\\s*(.*)+GB\\/Sec"),
          List.of(
              "gpgpu_simulation_rate\\s+=\\s+(.*)\\s+\\(inst\\/sec\\)",
              "gpgpu_simulation_rate\\s+=\\s+(.*)\\s+\\(cycle\\/sec\\)",
              "gpgpu_silicon_slowdown\\s*=\\s*(.*)x",
              "gpu_tot_ipc\\s*=\\s*(.*)"));

  public GetStatsList {
    aggregate = List.copyOf(aggregate);
    abs = List.copyOf(abs);
    rates = List.copyOf(rates);
    for (String stat : all(aggregate, abs, rates)) {
      Pattern pattern;
      try {
        pattern = Pattern.compile(stat);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "statistic \"" + stat + "\" is not a regular expression: " + e.getDescription(), e);
      }
      if (pattern.matcher("").groupCount() < 1) {
        throw new IllegalArgumentException(
            "statistic \"" + stat + "\" has no group: its first group (...) is the value");
      }
    }
  }

  /** Every statistic in the CSV's order: aggregate, then abs, then rates. */
  public List<String> all() {
    return all(aggregate, abs, rates);
  }

  private static List<String> all(List<String> aggregate, List<String> abs, List<String> rates) {
    List<String> all = new ArrayList<>(aggregate);
    all.addAll(abs);
    all.addAll(rates);
    return all;
  }

  /**
   * Reads a stats file in the shape of {@code example_stats.yml}: the keys {@code
   * collect_aggregate:}, {@code collect_abs:} and {@code collect_rates:}, each followed by items
   * {@code - 'regex'} (single-quoted, double-quoted or plain); comments and blank lines are
   * skipped.
   *
   * @throws IllegalArgumentException naming {@code file:line} for a line it cannot read or a bad
   *     expression
   */
  public static GetStatsList read(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    List<String> aggregate = new ArrayList<>();
    List<String> abs = new ArrayList<>();
    List<String> rates = new ArrayList<>();
    List<String> current = null;
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      switch (line) {
        case "collect_aggregate:" -> current = aggregate;
        case "collect_abs:" -> current = abs;
        case "collect_rates:" -> current = rates;
        default -> {
          if (current == null || !line.startsWith("-")) {
            throw new IllegalArgumentException(
                file
                    + ":"
                    + (i + 1)
                    + ": expected collect_aggregate:, collect_abs:, collect_rates: or a '- regex'"
                    + " item under one; got \""
                    + line
                    + "\"");
          }
          current.add(unquote(line.substring(1).strip()));
        }
      }
    }
    try {
      return new GetStatsList(aggregate, abs, rates);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  private static String unquote(String item) {
    if (item.length() >= 2 && item.startsWith("'") && item.endsWith("'")) {
      return item.substring(1, item.length() - 1).replace("''", "'");
    }
    if (item.length() >= 2 && item.startsWith("\"") && item.endsWith("\"")) {
      return item.substring(1, item.length() - 1).replace("\\\\", "\\").replace("\\\"", "\"");
    }
    return item;
  }
}
