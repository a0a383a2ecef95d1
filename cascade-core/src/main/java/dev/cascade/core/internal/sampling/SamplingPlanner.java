package dev.cascade.core.internal.sampling;

import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Makes a trace's {@link SamplingPlan} from its kernels' features; pure and deterministic (the same
 * features and request give the same plan, whatever the order of work).
 *
 * <ol>
 *   <li>Launches are grouped by kernel name, grid and block, in order of first launch.
 *   <li>Each group is one stratum to begin with. A stratum's <b>dispersion</b> is the coefficient
 *       of variation (standard deviation over mean) of its members' warp instructions; with {@link
 *       Sampling#FEATURES}, combined with that of their bytes moved per instruction as {@code
 *       sqrt(cv1^2 + cv2^2)}. Its <b>contribution</b> is its share of the trace's warp instructions
 *       times its dispersion: the relative error its one representative may bring to the total.
 *   <li>The <b>predicted error</b> is {@code 2 * sqrt(sum of contributions^2)}: the strata's errors
 *       taken as independent, two standard deviations (about 95%).
 *   <li>As Sieve splits a kernel's launches whose instruction counts vary too much, the stratum
 *       with the largest contribution is split while its dispersion is above the target error or
 *       the predicted error is: at the cut of its members (sorted by the feature that varies most)
 *       that leaves the least variance within the two halves. Splitting stops when neither holds,
 *       nothing can be split, or the budget of representatives is reached.
 *   <li>Each stratum's <b>representative</b> is the member closest to the stratum's mean features
 *       (the lower position on a tie); its <b>weight</b> is the stratum's warp instructions over
 *       the representative's, Sieve's projection, or the stratum's size when instructions are not
 *       counted.
 * </ol>
 */
public final class SamplingPlanner {

  /** Deviations two standard deviations wide: a half-width of about 95%. */
  static final double Z = 2.0;

  private SamplingPlanner() {}

  /**
   * The plan of trace {@code traceId} with launches {@code kernels}, as {@code request} asks.
   *
   * @throws IllegalArgumentException naming {@code sampling budget} when the budget is below the
   *     trace's number of groups (each group needs a representative)
   */
  public static SamplingPlan plan(String traceId, List<KernelFeatures> kernels, Sampling request) {
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(request, "request");
    boolean features = request.method().equals(Sampling.FEATURES);
    List<String> notes = new ArrayList<>();

    Map<List<String>, List<KernelFeatures>> groups = new LinkedHashMap<>();
    int uncounted = 0;
    long total = 0;
    for (KernelFeatures kernel : kernels) {
      boolean counted = kernel.instructions() != null;
      if (counted) {
        total += kernel.instructions();
      } else {
        uncounted++;
      }
      // Launches without a count are kept apart from the counted launches of the same kernel.
      List<String> key =
          java.util.Arrays.asList(
              kernel.name(), kernel.grid(), kernel.block(), counted ? "counted" : "uncounted");
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(kernel);
    }
    if (uncounted > 0) {
      notes.add(
          uncounted
              + (uncounted == 1 ? " kernel has" : " kernels have")
              + " no warp instruction count (its file was too large to count when the trace was"
              + " processed): weighted by number of launches, their spread unknown");
    }
    if (request.budget() != null && groups.size() > request.budget()) {
      throw new IllegalArgumentException(
          "sampling budget "
              + request.budget()
              + " is below the "
              + groups.size()
              + " groups of kernel launches (by name, grid and block) of trace \""
              + traceId
              + "\", each of which needs a representative; give a budget of at least "
              + groups.size());
    }
    final long totalInstructions = total;
    final int kernelCount = kernels.size();
    List<Stratum> strata = new ArrayList<>();
    for (List<KernelFeatures> members : groups.values()) {
      strata.add(new Stratum(members, features, totalInstructions, kernelCount));
    }

    int budget = request.budget() == null ? Integer.MAX_VALUE : request.budget();
    while (strata.size() < budget) {
      double predicted = predicted(strata);
      Stratum worst = null;
      for (Stratum stratum : strata) {
        boolean wanted =
            stratum.dispersion > request.targetError() || predicted > request.targetError();
        if (wanted
            && stratum.splittable()
            && (worst == null || stratum.contribution > worst.contribution)) {
          worst = stratum;
        }
      }
      if (worst == null) {
        break;
      }
      int at = strata.indexOf(worst);
      List<Stratum> halves = worst.split(features, totalInstructions, kernelCount);
      strata.remove(at);
      strata.addAll(at, halves);
    }
    double predicted = predicted(strata);
    if (predicted > request.targetError()) {
      notes.add(
          "the predicted error "
              + SamplingPlan.percent(predicted)
              + " is above the target "
              + SamplingPlan.percent(request.targetError())
              + (strata.size() >= budget
                  ? ": the budget of " + budget + " kernels bound"
                  : ": the strata left cannot be split further"));
    }
    List<SamplingPlan.Stratum> planned =
        strata.stream()
            .map(Stratum::toPlan)
            .sorted(Comparator.comparingInt(SamplingPlan.Stratum::representative))
            .toList();
    return new SamplingPlan(
        traceId, request.request(), kernelCount, totalInstructions, planned, predicted, notes);
  }

  static double predicted(List<Stratum> strata) {
    double sum = 0;
    for (Stratum stratum : strata) {
      sum += stratum.contribution * stratum.contribution;
    }
    return Z * Math.sqrt(sum);
  }

  /** A stratum while the plan is made: its members sorted by position. */
  static final class Stratum {
    final List<KernelFeatures> members;
    final boolean counted;
    final long instructions;
    final double dispersion;
    final double contribution;
    final boolean useIntensity;

    Stratum(List<KernelFeatures> members, boolean features, long total, int kernelCount) {
      this.members =
          members.stream().sorted(Comparator.comparingInt(KernelFeatures::position)).toList();
      this.counted = members.getFirst().instructions() != null;
      long sum = 0;
      for (KernelFeatures member : this.members) {
        sum += counted ? member.instructions() : 0;
      }
      this.instructions = sum;
      this.useIntensity =
          features && this.members.stream().allMatch(m -> m.memoryIntensity() != null);
      this.dispersion = counted ? dispersion(this.members, useIntensity) : 0;
      double share =
          total > 0 && counted
              ? (double) instructions / total
              : (double) this.members.size() / Math.max(1, kernelCount);
      this.contribution = share * dispersion;
    }

    boolean splittable() {
      return counted && members.size() > 1 && dispersion > 0;
    }

    /**
     * The two halves that leave the least variance within them, cutting the members sorted by the
     * feature that varies most (ties by position).
     */
    List<Stratum> split(boolean features, long total, int kernelCount) {
      boolean byIntensity =
          useIntensity && cv(members, KernelFeatures::memoryIntensity) > cv(members, Stratum::insn);
      java.util.function.Function<KernelFeatures, Double> key =
          byIntensity ? KernelFeatures::memoryIntensity : Stratum::insn;
      List<KernelFeatures> sorted =
          members.stream()
              .sorted(Comparator.comparing(key).thenComparingInt(KernelFeatures::position))
              .toList();
      int n = sorted.size();
      double[] prefix = new double[n + 1];
      double[] prefixSquares = new double[n + 1];
      for (int i = 0; i < n; i++) {
        double x = Math.log1p(key.apply(sorted.get(i)));
        prefix[i + 1] = prefix[i] + x;
        prefixSquares[i + 1] = prefixSquares[i] + x * x;
      }
      int best = 1;
      double bestCost = Double.MAX_VALUE;
      for (int cut = 1; cut < n; cut++) {
        double cost =
            sse(prefix[cut], prefixSquares[cut], cut)
                + sse(prefix[n] - prefix[cut], prefixSquares[n] - prefixSquares[cut], n - cut);
        if (cost < bestCost - 1e-12) {
          bestCost = cost;
          best = cut;
        }
      }
      return List.of(
          new Stratum(sorted.subList(0, best), features, total, kernelCount),
          new Stratum(sorted.subList(best, n), features, total, kernelCount));
    }

    private static double sse(double sum, double squares, int n) {
      return Math.max(0, squares - sum * sum / n);
    }

    private static Double insn(KernelFeatures kernel) {
      return (double) kernel.instructions();
    }

    /** The member closest to the mean features, relative to them; the lower position on a tie. */
    KernelFeatures representative() {
      if (!counted) {
        return members.get((members.size() - 1) / 2); // the middle launch: nothing tells them apart
      }
      double meanInsn = mean(members, Stratum::insn);
      double meanIntensity = useIntensity ? mean(members, KernelFeatures::memoryIntensity) : 0;
      KernelFeatures best = null;
      double bestDistance = Double.MAX_VALUE;
      for (KernelFeatures member : members) {
        double d = relative(member.instructions(), meanInsn);
        double distance =
            useIntensity ? Math.hypot(d, relative(member.memoryIntensity(), meanIntensity)) : d;
        if (distance < bestDistance - 1e-12) {
          bestDistance = distance;
          best = member;
        }
      }
      return best;
    }

    SamplingPlan.Stratum toPlan() {
      KernelFeatures representative = representative();
      Long repInstructions = counted ? representative.instructions() : null;
      double weight =
          counted && repInstructions > 0 ? (double) instructions / repInstructions : members.size();
      KernelFeatures first = members.getFirst();
      return new SamplingPlan.Stratum(
          first.name(),
          first.grid(),
          first.block(),
          members.stream().map(KernelFeatures::position).sorted().toList(),
          representative.position(),
          repInstructions,
          instructions,
          weight,
          dispersion);
    }

    private static double relative(double value, double mean) {
      return mean == 0 ? Math.abs(value) : Math.abs(value - mean) / mean;
    }
  }

  /** sqrt(cv(instructions)^2 + cv(intensity)^2), or the first alone. */
  static double dispersion(List<KernelFeatures> members, boolean withIntensity) {
    double insn = cv(members, kernel -> (double) kernel.instructions());
    if (!withIntensity) {
      return insn;
    }
    double intensity = cv(members, KernelFeatures::memoryIntensity);
    return Math.sqrt(insn * insn + intensity * intensity);
  }

  /** The coefficient of variation (population standard deviation over the mean); 0 when flat. */
  static double cv(
      List<KernelFeatures> members, java.util.function.Function<KernelFeatures, Double> feature) {
    double mean = mean(members, feature);
    if (members.size() < 2 || mean == 0) {
      return 0;
    }
    double squares = 0;
    for (KernelFeatures member : members) {
      double d = feature.apply(member) - mean;
      squares += d * d;
    }
    double cv = Math.sqrt(squares / members.size()) / mean;
    return cv < 1e-9 ? 0 : cv; // rounding in the mean of equal values is no spread
  }

  private static double mean(
      List<KernelFeatures> members, java.util.function.Function<KernelFeatures, Double> feature) {
    double sum = 0;
    for (KernelFeatures member : members) {
      sum += feature.apply(member);
    }
    return sum / members.size();
  }
}
