package dev.cascade.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which of a trace's kernels a sampled run simulates and what each stands for: the trace's launches
 * grouped by kernel name and launch shape (grid and block), each group cut into strata of alike
 * launches, one representative per stratum. Made from the per-kernel features kept when the trace
 * was processed, and deterministic: the same trace and request always give the same plan, so two
 * configs sampled with it are compared like for like. See docs/traces.md, "Kernel sampling".
 *
 * @param traceId the trace
 * @param request the sampling asked for
 * @param kernels the trace's kernel launches
 * @param warpInstructions the trace's warp-level instructions (as counted in the trace files), over
 *     the kernels whose count is known
 * @param strata the strata, in order of their representative's position
 * @param predictedError the relative error of a whole-trace estimate that the spread of features
 *     within strata predicts, as a half-width of about 95% (two standard deviations)
 * @param notes what to know when reading the plan (kernels without counts, a budget that bound)
 */
public record SamplingPlan(
    String traceId,
    Sampling request,
    int kernels,
    long warpInstructions,
    List<Stratum> strata,
    double predictedError,
    List<String> notes) {

  public SamplingPlan {
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(request, "request");
    strata = List.copyOf(strata);
    notes = List.copyOf(notes);
  }

  /**
   * Launches that are alike, stood for by one of them.
   *
   * @param name the kernel's name (mangled, as in the trace)
   * @param grid grid dimensions {@code "x,y,z"}; null when unknown
   * @param block block dimensions {@code "x,y,z"}; null when unknown
   * @param members the launches' positions in {@code kernelslist.g}, from 1, ascending
   * @param representative the position of the launch simulated for all of them
   * @param representativeInstructions its warp instructions; null when not counted
   * @param warpInstructions the members' warp instructions together (0 when not counted)
   * @param weight what the representative's measured values are multiplied by: the stratum's warp
   *     instructions over the representative's (Sieve's projection), or the number of members when
   *     instructions are not counted
   * @param dispersion the relative spread of the members' features (coefficient of variation of
   *     instruction count, with that of bytes per instruction for {@code features})
   */
  public record Stratum(
      String name,
      String grid,
      String block,
      List<Integer> members,
      int representative,
      Long representativeInstructions,
      long warpInstructions,
      double weight,
      double dispersion) {

    public Stratum {
      members = List.copyOf(members);
      if (!members.contains(representative)) {
        throw new IllegalArgumentException(
            "representative " + representative + " is not among the members " + members);
      }
    }

    /** How many launches it stands for. */
    public int size() {
      return members.size();
    }
  }

  /** How many kernels a sampled run simulates: one per stratum. */
  public int simulatedKernels() {
    return strata.size();
  }

  /** The representatives' warp instructions together. */
  public long simulatedWarpInstructions() {
    long sum = 0;
    for (Stratum stratum : strata) {
      sum +=
          stratum.representativeInstructions() == null ? 0 : stratum.representativeInstructions();
    }
    return sum;
  }

  /** The share of the trace's warp instructions simulated, from 0 to 1 (of kernels when none). */
  public double simulatedShare() {
    return warpInstructions > 0
        ? (double) simulatedWarpInstructions() / warpInstructions
        : kernels == 0 ? 0 : (double) strata.size() / kernels;
  }

  /** The representatives as a kernel window ({@code "3,17,40-41"}): what the sims run. */
  public KernelWindow window() {
    List<Integer> positions =
        strata.stream().map(Stratum::representative).sorted().distinct().toList();
    return new KernelWindow(ranges(positions), positions);
  }

  /** The stratum a launch belongs to; empty when the position is not in the plan. */
  public java.util.Optional<Stratum> stratumOf(int position) {
    return strata.stream().filter(s -> s.members().contains(position)).findFirst();
  }

  /** {@code estimated from 14 of 1008 kernels (4.1% of warp instructions)}. */
  public String summary() {
    return "estimated from "
        + strata.size()
        + " of "
        + kernels
        + " kernels ("
        + percent(simulatedShare())
        + " of warp instructions)";
  }

  /** Ascending positions written as a kernel window: {@code [1,2,3,7]} is {@code "1-3,7"}. */
  public static String ranges(List<Integer> ascending) {
    List<String> parts = new ArrayList<>();
    int i = 0;
    while (i < ascending.size()) {
      int j = i;
      while (j + 1 < ascending.size() && ascending.get(j + 1) == ascending.get(j) + 1) {
        j++;
      }
      parts.add(
          j == i ? Integer.toString(ascending.get(i)) : ascending.get(i) + "-" + ascending.get(j));
      i = j + 1;
    }
    return String.join(",", parts);
  }

  /** A fraction as a percentage with one decimal, or two below 1%: {@code 0.0412} is "4.1%". */
  public static String percent(double fraction) {
    double value = fraction * 100;
    return String.format(java.util.Locale.ROOT, value < 1 ? "%.2f%%" : "%.1f%%", value);
  }
}
