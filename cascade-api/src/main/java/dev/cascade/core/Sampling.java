package dev.cascade.core;

import java.util.List;

/**
 * How a run entry samples the trace's kernels instead of simulating them all (kernel sampling,
 * issue 30): launches are grouped by kernel name and launch shape, each group is cut into strata of
 * alike launches, and one representative per stratum is simulated and weighted by what it stands
 * for ({@link SamplingPlan}). Wire form: {@code "sampling": {"target_error": 0.05, "method":
 * "instructions", "budget": 40, "validate": true}}, every field optional.
 *
 * @param targetError the predicted error (a relative half-width, about 95%) the plan cuts strata
 *     until it reaches, from 0.001 to 0.5; {@value #DEFAULT_TARGET_ERROR} when not given
 * @param budget at most this many representatives (simulated kernels); null for no limit. A budget
 *     below the trace's number of kernel groups is refused
 * @param method {@value #INSTRUCTIONS} (strata by warp instruction count, as Sieve does) or {@value
 *     #FEATURES} (by instruction count and memory intensity together)
 * @param validate also simulate the whole trace once on the entry's config, to report the sample's
 *     real error beside the predicted one
 * @param validationRun the run that simulates the whole trace for {@code validate}; set by Cascade
 *     when it creates that run, null before
 */
public record Sampling(
    double targetError, Integer budget, String method, boolean validate, String validationRun) {

  public static final double DEFAULT_TARGET_ERROR = 0.05;
  public static final double MIN_TARGET_ERROR = 0.001;
  public static final double MAX_TARGET_ERROR = 0.5;

  /** Strata by warp instruction count only. */
  public static final String INSTRUCTIONS = "instructions";

  /** Strata by warp instruction count and memory intensity (bytes moved per instruction). */
  public static final String FEATURES = "features";

  public static final List<String> METHODS = List.of(INSTRUCTIONS, FEATURES);

  public Sampling {
    if (!(targetError >= MIN_TARGET_ERROR && targetError <= MAX_TARGET_ERROR)) {
      throw new IllegalArgumentException(
          "sampling target_error must be a fraction from "
              + MIN_TARGET_ERROR
              + " to "
              + MAX_TARGET_ERROR
              + " (0.05 is 5%); got "
              + targetError);
    }
    if (budget != null && budget < 1) {
      throw new IllegalArgumentException(
          "sampling budget must be at least 1 kernel to simulate; got " + budget);
    }
    method = method == null ? INSTRUCTIONS : method;
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException(
          "sampling method \"" + method + "\" is not known; use one of " + METHODS);
    }
  }

  /** Sampling to {@code targetError} by instruction count, without a budget or validation. */
  public static Sampling of(double targetError) {
    return new Sampling(targetError, null, INSTRUCTIONS, false, null);
  }

  /** Sampling to the default target error ({@value #DEFAULT_TARGET_ERROR}). */
  public static Sampling defaults() {
    return of(DEFAULT_TARGET_ERROR);
  }

  public Sampling withBudget(Integer budget) {
    return new Sampling(targetError, budget, method, validate, validationRun);
  }

  public Sampling withMethod(String method) {
    return new Sampling(targetError, budget, method, validate, validationRun);
  }

  public Sampling withValidate(boolean validate) {
    return new Sampling(targetError, budget, method, validate, validationRun);
  }

  public Sampling withValidationRun(String validationRun) {
    return new Sampling(targetError, budget, method, validate, validationRun);
  }

  /** This request without what Cascade adds ({@code validationRun}): what the plan depends on. */
  public Sampling request() {
    return new Sampling(targetError, budget, method, validate, null);
  }
}
