package dev.cascade.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One line of a run request: a GPU config, how many replicas of it to simulate (1 to 64), and
 * optionally the kernels to simulate ({@link KernelWindow}, {@code "1-5,9"}; null for all).
 *
 * <p>An entry may also change its config: {@code params} sets simulator options over the base
 * config's ({@code -gpgpu_n_clusters=54}), making a <em>variant</em> named {@code SM80_A100
 * -gpgpu_n_clusters=54} (or {@code label}); {@code sweep} gives each option a list of values and
 * stands for every combination of them ({@link #expand}), each a variant of its own with the
 * entry's count.
 *
 * @param timeLimit the wall time each sim of the entry may take once launched; null for none. A sim
 *     over it is stopped and fails with {@code timed out after ...}
 * @param context which CUDA context of the trace to simulate, for a trace with several (Accel-Sim
 *     2.0's tracer writes a list per context): {@code kernelslist} for the first (its {@code
 *     kernelslist.g}), or another's list name such as {@code kernelslist_ctx_0x2} (its {@code
 *     kernelslist_ctx_0x2.g}); null for the first. The kernel window counts positions in that
 *     context's list.
 * @param sampling simulate only the representatives of the trace's {@link SamplingPlan} and
 *     estimate the whole trace from them; null to simulate what {@code kernels} names. An entry
 *     takes a window or sampling, not both
 * @param params options set over the base config, by name with the leading dash ({@code
 *     -gpgpu_n_clusters}), in the order given; empty for the config as it is
 * @param sweep options to sweep, each with its values in order; empty for no sweep
 * @param label the variant's name instead of the config and its params; null for that default
 */
public record RunEntry(
    String gpuConfig,
    int count,
    String kernels,
    Duration timeLimit,
    String context,
    Sampling sampling,
    Map<String, String> params,
    Map<String, List<String>> sweep,
    String label) {

  public static final int MAX_COUNT = 64;

  /** The longest context name taken. */
  public static final int MAX_CONTEXT_CHARS = 200;

  /** The most variants one entry's sweep may expand to. */
  public static final int MAX_VARIANTS = 64;

  /** The most characters of a label. */
  public static final int MAX_LABEL = 200;

  private static final Pattern PARAM_NAME = Pattern.compile("-[A-Za-z][A-Za-z0-9_:.\\-]{0,99}");

  public RunEntry {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    if (gpuConfig.isBlank()) {
      throw new IllegalArgumentException("gpu_config must name a GPU config; got a blank name");
    }
    if (count < 1 || count > MAX_COUNT) {
      throw new IllegalArgumentException(countProblem(gpuConfig, count));
    }
    if (kernels != null) {
      kernels = KernelWindow.parse(kernels).text();
    }
    if (timeLimit != null) {
      TimeLimit.requireValid(timeLimit);
    }
    if (context != null) {
      requireValidContext(context);
    }
    if (kernels != null && sampling != null) {
      throw new IllegalArgumentException(
          "the entry for \""
              + gpuConfig
              + "\" names both kernels \""
              + kernels
              + "\" and sampling; give one: a window of kernels, or sampling to choose them");
    }
    Map<String, String> checkedParams = new LinkedHashMap<>();
    (params == null ? Map.<String, String>of() : params)
        .forEach((name, value) -> checkedParams.put(paramName(name), paramValue(name, value)));
    params = Collections.unmodifiableMap(checkedParams);
    Map<String, List<String>> checkedSweep = new LinkedHashMap<>();
    (sweep == null ? Map.<String, List<String>>of() : sweep)
        .forEach(
            (name, values) -> {
              String key = paramName(name);
              if (values == null || values.isEmpty()) {
                throw new IllegalArgumentException(
                    "sweep "
                        + key
                        + " has no values; give at least one, such as [\"54\", \"108\"]");
              }
              List<String> checked = new ArrayList<>();
              for (String value : values) {
                String one = paramValue(name, value);
                if (checked.contains(one)) {
                  throw new IllegalArgumentException(
                      "sweep " + key + " lists \"" + one + "\" twice; list each value once");
                }
                checked.add(one);
              }
              if (checkedParams.containsKey(key)) {
                throw new IllegalArgumentException(
                    key + " is both in params and in sweep; give it in one of them");
              }
              checkedSweep.put(key, List.copyOf(checked));
            });
    sweep = Collections.unmodifiableMap(checkedSweep);
    if (label != null) {
      label = label.strip();
      if (label.isEmpty() || label.length() > MAX_LABEL) {
        throw new IllegalArgumentException(
            "label must be 1 to " + MAX_LABEL + " characters; got \"" + label + "\"");
      }
    }
  }

  /** The 4-component form: the whole trace's first CUDA context, the config as it is. */
  public RunEntry(String gpuConfig, int count, String kernels, Duration timeLimit) {
    this(gpuConfig, count, kernels, timeLimit, null, null, Map.of(), Map.of(), null);
  }

  /** An entry simulating every kernel of the trace, without a time limit. */
  public RunEntry(String gpuConfig, int count) {
    this(gpuConfig, count, (String) null, null);
  }

  /** An entry simulating the kernels of {@code kernels} (null: all), without a time limit. */
  public RunEntry(String gpuConfig, int count, String kernels) {
    this(gpuConfig, count, kernels, null);
  }

  /** An entry simulating every kernel, each sim limited to {@code timeLimit} (null: none). */
  public RunEntry(String gpuConfig, int count, Duration timeLimit) {
    this(gpuConfig, count, null, timeLimit);
  }

  /** An entry that samples the trace's kernels as {@code sampling} asks. */
  public RunEntry(String gpuConfig, int count, Sampling sampling) {
    this(gpuConfig, count, null, null, null, sampling, Map.of(), Map.of(), null);
  }

  /** A variant of {@code gpuConfig}: its options with {@code params} set over them. */
  public static RunEntry variant(String gpuConfig, int count, Map<String, String> params) {
    return new RunEntry(gpuConfig, count, null, null, null, null, params, Map.of(), null);
  }

  /** The kernel window, when the entry names one. */
  public Optional<KernelWindow> window() {
    return kernels == null ? Optional.empty() : Optional.of(KernelWindow.parse(kernels));
  }

  /** This entry with each sim limited to {@code timeLimit} of wall time (null: no limit). */
  public RunEntry withTimeLimit(Duration timeLimit) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /** This entry simulating the CUDA context {@code context} of the trace (null: the first). */
  public RunEntry withContext(String context) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /**
   * Checks that {@code context} can name a CUDA context: a list name of letters, digits, {@code _},
   * {@code .} and {@code -}, such as {@code kernelslist_ctx_0x2}. Whether the trace has it is
   * checked when the run is made.
   *
   * @throws IllegalArgumentException naming the value when it cannot
   */
  public static void requireValidContext(String context) {
    boolean valid =
        !context.isEmpty()
            && context.length() <= MAX_CONTEXT_CHARS
            && !context.startsWith(".")
            && context
                .chars()
                .allMatch(
                    c ->
                        (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '_'
                            || c == '.'
                            || c == '-');
    if (!valid) {
      throw new IllegalArgumentException(
          "context must name a CUDA context of the trace, such as kernelslist (the first) or"
              + " kernelslist_ctx_0x2 (cascade trace-info lists them); got \""
              + (context.length() > MAX_CONTEXT_CHARS
                  ? context.substring(0, MAX_CONTEXT_CHARS) + "..."
                  : context)
              + "\"");
    }
  }

  /** This entry sampled as {@code sampling} asks (null: not sampled). */
  public RunEntry withSampling(Sampling sampling) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /** This entry with the kernels of {@code kernels} (null: all). */
  public RunEntry withKernels(String kernels) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /** This entry with {@code params} set over its config (replacing the params it had). */
  public RunEntry withParams(Map<String, String> params) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /** This entry sweeping {@code sweep} (replacing the sweep it had). */
  public RunEntry withSweep(Map<String, List<String>> sweep) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /** This entry named {@code label} (null: the config and its params). */
  public RunEntry withLabel(String label) {
    return new RunEntry(
        gpuConfig, count, kernels, timeLimit, context, sampling, params, sweep, label);
  }

  /** True when the entry changes its config's options. */
  public boolean isVariant() {
    return !params.isEmpty();
  }

  /**
   * What the entry's sims and results are called: the label when it has one, else the config
   * followed by each param as {@code -name=value} ({@code SM80_A100 -gpgpu_n_clusters=54}), else
   * the config's name.
   */
  public String name() {
    if (label != null) {
      return label;
    }
    return gpuConfig + paramsText(params);
  }

  /** {@code " -a=1 -b=2"}: each param after a space; empty for none. */
  public static String paramsText(Map<String, String> params) {
    StringBuilder text = new StringBuilder();
    params.forEach((name, value) -> text.append(' ').append(name).append('=').append(value));
    return text.toString();
  }

  /** How many variants the sweep stands for: the product of its lists' sizes; 1 without one. */
  public long variantCount() {
    long product = 1;
    for (List<String> values : sweep.values()) {
      product *= values.size();
      if (product > Integer.MAX_VALUE) {
        return product;
      }
    }
    return product;
  }

  /**
   * The entries this one stands for: itself when it sweeps nothing; otherwise one variant per
   * combination of the sweep's values (the first option changing slowest), each with the entry's
   * count, params, kernels and time limit, and named by its label (when it has one) followed by the
   * swept values.
   *
   * @throws IllegalArgumentException when the sweep gives more than {@value #MAX_VARIANTS} variants
   */
  public List<RunEntry> expand() {
    if (sweep.isEmpty()) {
      return List.of(this);
    }
    long total = variantCount();
    if (total > MAX_VARIANTS) {
      List<String> sizes = sweep.values().stream().map(v -> Integer.toString(v.size())).toList();
      throw new IllegalArgumentException(
          "sweep of \""
              + gpuConfig
              + "\" gives "
              + String.join(" x ", sizes)
              + " = "
              + total
              + " variants; at most "
              + MAX_VARIANTS
              + " per entry: sweep fewer values, or split it into several entries or runs");
    }
    List<Map<String, String>> combinations = new ArrayList<>();
    combinations.add(new LinkedHashMap<>());
    for (Map.Entry<String, List<String>> option : sweep.entrySet()) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> partial : combinations) {
        for (String value : option.getValue()) {
          Map<String, String> longer = new LinkedHashMap<>(partial);
          longer.put(option.getKey(), value);
          next.add(longer);
        }
      }
      combinations = next;
    }
    List<RunEntry> variants = new ArrayList<>(combinations.size());
    for (Map<String, String> swept : combinations) {
      Map<String, String> all = new LinkedHashMap<>(params);
      all.putAll(swept);
      variants.add(
          new RunEntry(
              gpuConfig,
              count,
              kernels,
              timeLimit,
              context,
              sampling,
              all,
              Map.of(),
              label == null ? null : label + paramsText(swept)));
    }
    return List.copyOf(variants);
  }

  /**
   * Why {@code count} replicas of {@code gpuConfig} cannot be run, in the words every entry point
   * (API, web form, command line) shows: {@code count for "SM90_H100" must be a whole number from 1
   * to 64; got 65}.
   */
  public static String countProblem(String gpuConfig, long count) {
    return "count for \""
        + gpuConfig
        + "\" must be a whole number from 1 to "
        + MAX_COUNT
        + "; got "
        + count;
  }

  /** {@code gpgpu_n_clusters} or {@code -gpgpu_n_clusters} as {@code -gpgpu_n_clusters}. */
  public static String paramName(String name) {
    if (name == null) {
      throw new IllegalArgumentException("a parameter needs a name, such as -gpgpu_n_clusters");
    }
    String dashed = name.strip().startsWith("-") ? name.strip() : "-" + name.strip();
    if (!PARAM_NAME.matcher(dashed).matches()) {
      throw new IllegalArgumentException(
          "parameter \""
              + name
              + "\" is not a simulator option name: a dash, a letter, then letters, digits and"
              + " _ : . -, such as -gpgpu_n_clusters or -gpgpu_cache:dl2");
    }
    return dashed;
  }

  private static String paramValue(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "parameter " + name + " needs a value; got " + (value == null ? "none" : "a blank one"));
    }
    String stripped = value.strip();
    for (int i = 0; i < stripped.length(); i++) {
      char c = stripped.charAt(i);
      if (Character.isWhitespace(c) || c == '#' || c == '"') {
        throw new IllegalArgumentException(
            "parameter "
                + name
                + " value \""
                + stripped
                + "\" holds a space, # or quote, which the simulator's option reader splits"
                + " or drops; give one token such as 54 or S:64:128:16,L:B:m:L:P");
      }
    }
    return stripped;
  }
}
