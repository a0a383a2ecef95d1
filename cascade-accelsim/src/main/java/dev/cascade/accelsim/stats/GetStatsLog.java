package dev.cascade.accelsim.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One log read the way {@code get_stats.py -k -K} reads it, in one pass: the build strings in its
 * first 99 lines, whether {@code exit detected} is among its last 9,999, and per kernel instance
 * ({@code NAME--N}) the value of each statistic. An aggregate statistic is its total minus the
 * total of the kernel before, when that kernel had it (else the total itself), added up over
 * repeats inside a block; the others are the text the expression caught. A kernel cut short by the
 * cycle or instruction limit loses its values. Not thread-safe.
 */
final class GetStatsLog {

  static final String ACCEL_SIM_BUILD = "Accel-Sim-build";
  static final String GPGPU_SIM_BUILD = "GPGPU-Sim-build";

  private static final int BUILD_LINES = 99;
  private static final int EXIT_LINES = 9_999;
  private static final Pattern GPGPU_BUILD = Pattern.compile(".*GPGPU-Sim.*\\[build\\s+(.*)\\].*");
  private static final Pattern ACCEL_BUILD = Pattern.compile("Accel-Sim.*\\[build\\s+(.*)\\].*");
  private static final Pattern EXIT =
      Pattern.compile("GPGPU-Sim: \\*\\*\\* exit detected \\*\\*\\*");
  private static final Pattern LIMIT_BREAK =
      Pattern.compile(
          "GPGPU-Sim: \\*\\* break due to reaching the maximum cycles \\(or instructions\\) \\*\\*");
  private static final Pattern KERNEL_NAME = Pattern.compile("kernel_name\\s+=\\s+(.*)");

  /** The build strings found, by {@link #ACCEL_SIM_BUILD} and {@link #GPGPU_SIM_BUILD}. */
  final Map<String, String> builds = new LinkedHashMap<>();

  /** Kernel instances in log order. */
  final List<String> kernels = new ArrayList<>();

  /** Per kernel instance, each statistic's value (by its index in the list), or null. */
  final Map<String, Object[]> values = new HashMap<>();

  /** True when the log says {@code exit detected} near its end. */
  boolean exited;

  private final GetStatsList stats;
  private final Pattern[] patterns;
  private final int aggregates;
  private final double[] rawLast;
  private final boolean[] hasRawLast;
  private final Map<String, Integer> instances = new HashMap<>();
  private String current = "";
  private String last = "";
  private long lineNumber;
  private long lastExitLine = -1;
  private boolean gpgpuBuildSeen;

  private GetStatsLog(GetStatsList stats) {
    this.stats = stats;
    List<String> all = stats.all();
    patterns = all.stream().map(Pattern::compile).toArray(Pattern[]::new);
    aggregates = stats.aggregate().size();
    rawLast = new double[all.size()];
    hasRawLast = new boolean[all.size()];
  }

  /** Reads the log to its end. */
  static GetStatsLog read(BufferedReader log, GetStatsList stats) throws IOException {
    GetStatsLog read = new GetStatsLog(stats);
    for (String line = log.readLine(); line != null; line = log.readLine()) {
      read.line(line);
    }
    read.exited = read.lastExitLine >= 0 && read.lineNumber - read.lastExitLine < EXIT_LINES;
    return read;
  }

  private void line(String line) {
    lineNumber++;
    if (lineNumber <= BUILD_LINES && !gpgpuBuildSeen) {
      build(line);
    }
    if (EXIT.matcher(line).lookingAt()) {
      lastExitLine = lineNumber;
    }
    if (LIMIT_BREAK.matcher(line).lookingAt()) {
      values.remove(current); // its numbers are not final
    }
    Matcher kernel = KERNEL_NAME.matcher(line);
    if (kernel.lookingAt()) {
      last = current;
      String name = kernel.group(1).strip();
      int instance = instances.merge(name, 1, Integer::sum) - 1;
      current = name + "--" + instance;
      if (!kernels.contains(current)) {
        kernels.add(current);
      }
      return;
    }
    String stripped = line.stripTrailing();
    for (int i = 0; i < patterns.length; i++) {
      Matcher match = patterns[i].matcher(stripped);
      if (match.find() && match.group(1) != null) {
        record(i, match.group(1).strip());
      }
    }
  }

  private void build(String line) {
    Matcher gpgpu = GPGPU_BUILD.matcher(line);
    if (gpgpu.lookingAt()) {
      builds.put(GPGPU_SIM_BUILD, gpgpu.group(1));
      gpgpuBuildSeen = true; // the script stops looking here
      return;
    }
    Matcher accel = ACCEL_BUILD.matcher(line);
    if (accel.lookingAt()) {
      builds.put(ACCEL_SIM_BUILD, accel.group(1));
    }
  }

  private void record(int stat, String text) {
    if (stat >= aggregates) {
      row(current)[stat] = text;
      return;
    }
    OptionalDouble parsed = PythonFloats.parse(text);
    if (parsed.isEmpty()) {
      return; // the script would stop with a ValueError; here the line is left out
    }
    double number = parsed.getAsDouble();
    Object[] row = row(current);
    double before;
    if (row[stat] instanceof Double sum) {
      before = hasRawLast[stat] ? rawLast[stat] : 0.0;
      row[stat] = sum + (number - before);
    } else {
      Object[] previous = values.get(last);
      before = previous != null && previous[stat] != null && hasRawLast[stat] ? rawLast[stat] : 0.0;
      row[stat] = number - before;
    }
    rawLast[stat] = number;
    hasRawLast[stat] = true;
  }

  private Object[] row(String kernel) {
    return values.computeIfAbsent(kernel, k -> new Object[stats.all().size()]);
  }

  /** The value as the script prints it: an aggregate as Python's {@code str(float)}. */
  String text(String kernel, int stat) {
    Object[] row = values.get(kernel);
    Object value = row == null ? null : row[stat];
    if (value == null) {
      return null;
    }
    return value instanceof Double number ? PythonFloats.repr(number) : (String) value;
  }
}
