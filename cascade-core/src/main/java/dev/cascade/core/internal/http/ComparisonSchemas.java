package dev.cascade.core.internal.http;

import static dev.cascade.core.internal.http.OpenApiJson.array;
import static dev.cascade.core.internal.http.OpenApiJson.enumOf;
import static dev.cascade.core.internal.http.OpenApiJson.integer;
import static dev.cascade.core.internal.http.OpenApiJson.map;
import static dev.cascade.core.internal.http.OpenApiJson.nullable;
import static dev.cascade.core.internal.http.OpenApiJson.number;
import static dev.cascade.core.internal.http.OpenApiJson.object;
import static dev.cascade.core.internal.http.OpenApiJson.ref;
import static dev.cascade.core.internal.http.OpenApiJson.string;

import java.util.List;
import java.util.Map;

/**
 * The schemas of comparisons: a config's speedup over the baseline, and a run's kernels against the
 * hardware's (Nsight Compute) numbers.
 */
final class ComparisonSchemas {

  private ComparisonSchemas() {}

  static void addTo(Map<String, Object> schemas) {
    schemas.put(
        "SpeedupRatio",
        object(
            List.of("ratio", "verdict"),
            "ratio",
            number("baseline mean / config mean: above 1 the config is faster"),
            "verdict",
            enumOf("faster", "slower", "same_within_spread")));
    schemas.put(
        "KernelSpeedup",
        object(
            List.of(),
            "cycles",
            nullableRef("SpeedupRatio"),
            "simulated_time",
            nullableRef("SpeedupRatio")));
    schemas.put(
        "CorrelationFit",
        object(
            List.of("n", "mean_abs_error_pct", "aggregate_error_pct", "nrmse"),
            "n",
            integer(),
            "correlation",
            nullable(number("Pearson's r; null for fewer than two kernels")),
            "mean_abs_error_pct",
            number("mean of |sim - hw| / hw * 100"),
            "aggregate_error_pct",
            number("sum |sim - hw| / sum hw * 100"),
            "nrmse",
            number("sqrt(mean((sim - hw)^2)) / mean(hw)")));
    schemas.put(
        "KernelMatch",
        object(
            List.of("name", "instance", "measured_name", "simulated_cycles"),
            "name",
            string(),
            "readable_name",
            string(),
            "instance",
            integer(),
            "label",
            string(),
            "measured_name",
            string("The name Nsight Compute gave the kernel of the same launch order"),
            "measured_cycles",
            nullable(number("gpc__cycles_elapsed.max")),
            "simulated_cycles",
            number("Mean of the config's succeeded replicas"),
            "cycles_error_pct",
            nullable(number("(sim - hw) / hw * 100")),
            "measured_time_us",
            nullable(number("gpu__time_duration.sum, in microseconds")),
            "simulated_time_us",
            nullable(number()),
            "time_error_pct",
            nullable(number())));
    schemas.put(
        "ConfigCorrelation",
        object(
            List.of("gpu_config", "kernels"),
            "gpu_config",
            string(),
            "kernels",
            array(ref("KernelMatch")),
            "cycles",
            nullableRef("CorrelationFit"),
            "time",
            nullableRef("CorrelationFit"),
            "notes",
            array(string())));
    schemas.put(
        "HardwareCorrelation",
        object(
            List.of("run_id", "trace_id", "configs"),
            "run_id",
            string(),
            "trace_id",
            string(),
            "trace_arch",
            string(),
            "source",
            nullable(string("Where the measured numbers came from; null when the trace has none")),
            "measured_kernels",
            integer(),
            "formulas",
            string(),
            "configs",
            array(ref("ConfigCorrelation")),
            "notes",
            array(string())));
    schemas.put(
        "HardwareStored",
        object(
            List.of("trace_id", "source", "kernels"),
            "trace_id",
            string(),
            "source",
            string(),
            "kernels",
            integer("Kernel launches the CSV holds")));
  }

  private static Map<String, Object> nullableRef(String schema) {
    return map("allOf", List.of(ref(schema)), "nullable", true);
  }
}
