package dev.cascade.core.internal.http;

import static dev.cascade.core.internal.http.OpenApiJson.array;
import static dev.cascade.core.internal.http.OpenApiJson.bool;
import static dev.cascade.core.internal.http.OpenApiJson.described;
import static dev.cascade.core.internal.http.OpenApiJson.enumOf;
import static dev.cascade.core.internal.http.OpenApiJson.integer;
import static dev.cascade.core.internal.http.OpenApiJson.mapOf;
import static dev.cascade.core.internal.http.OpenApiJson.nullable;
import static dev.cascade.core.internal.http.OpenApiJson.number;
import static dev.cascade.core.internal.http.OpenApiJson.object;
import static dev.cascade.core.internal.http.OpenApiJson.ref;
import static dev.cascade.core.internal.http.OpenApiJson.string;
import static dev.cascade.core.internal.http.ReportSchemas.nullableRef;

import java.util.List;
import java.util.Map;

/**
 * The schemas of partial results ({@code progress} of a run's results) and of run-to-run comparison
 * ({@code GET /api/compare}).
 */
final class CompareSchemas {

  private CompareSchemas() {}

  static void addTo(Map<String, Object> schemas) {
    schemas.put(
        "SimToCome",
        object(
            List.of("sim_id", "gpu_config", "replica", "state"),
            "sim_id",
            string(),
            "gpu_config",
            string(),
            "replica",
            integer(),
            "state",
            enumOf("pending", "launching", "running", "lost"),
            "kernels_done",
            integer("Finished so far: they count in the config's kernel rows, not its total"),
            "kernels_total",
            integer()));
    schemas.put(
        "ResultsProgress",
        object(
            List.of("sims", "sims_finished", "to_come"),
            "sims",
            integer(),
            "sims_finished",
            integer(),
            "kernels_done",
            integer(),
            "kernels_total",
            integer(),
            "summary",
            string("For people: what is done and what is still to come"),
            "to_come",
            array(ref("SimToCome"))));
    schemas.put(
        "MeasureSummary",
        object(
            List.of("n", "mean", "min", "max"),
            "n",
            integer(),
            "mean",
            number(),
            "min",
            number(),
            "max",
            number()));
    schemas.put(
        "MeasureChange",
        object(
            List.of("baseline", "run", "difference", "direction"),
            "baseline",
            ref("MeasureSummary"),
            "run",
            ref("MeasureSummary"),
            "difference",
            number("run mean - baseline mean"),
            "relative",
            nullable(number("difference / baseline mean")),
            "direction",
            enumOf("higher", "lower", "same_within_spread"),
            "speedup",
            nullableRef("SpeedupRatio")));
    schemas.put(
        "KernelChange",
        object(
            List.of("position", "name", "label", "instance"),
            "position",
            integer("Place in the baseline run's kernel rows, from 1; 0 for the total"),
            "name",
            string(),
            "readable_name",
            string(),
            "label",
            string(),
            "instance",
            integer(),
            "cycles",
            nullableRef("MeasureChange"),
            "ipc",
            nullableRef("MeasureChange"),
            "simulated_time_us",
            nullableRef("MeasureChange")));
    // A requested measure's change sits beside the fixed three under its own id.
    @SuppressWarnings("unchecked")
    Map<String, Object> kernelChange = (Map<String, Object>) schemas.get("KernelChange");
    kernelChange.put(
        "additionalProperties",
        described(
            nullableRef("MeasureChange"),
            "A requested measure's change (?measures=), by its id; null when either side has no"
                + " replica of it"));
    schemas.put(
        "InputDifference",
        object(
            List.of("input", "baseline", "run", "status"),
            "input",
            enumOf("trace", "config content", "simulator", "simulator build"),
            "baseline",
            string("The baseline's value; unknown when no sim recorded it"),
            "run",
            string(),
            "status",
            enumOf("same", "differs", "unknown")));
    schemas.put(
        "ConfigChange",
        object(
            List.of("gpu_config", "differs", "inputs", "kernels", "total"),
            "gpu_config",
            string(),
            "differs",
            array(string()),
            "inputs",
            array(ref("InputDifference")),
            "kernels",
            array(ref("KernelChange")),
            "total",
            ref("KernelChange"),
            "notes",
            array(string())));
    schemas.put(
        "RunChange",
        object(
            List.of("run_id", "configs"),
            "run_id",
            string(),
            "only_in_baseline",
            array(string()),
            "only_in_run",
            array(string()),
            "configs",
            array(ref("ConfigChange"))));
    schemas.put(
        "ComparedRun",
        object(
            List.of("run_id", "trace_id", "state", "partial"),
            "run_id",
            string(),
            "trace_id",
            string(),
            "state",
            string(),
            "partial",
            bool()));
    schemas.put(
        "RunComparison",
        object(
            List.of("baseline", "runs", "changes"),
            "baseline",
            string("The baseline run: the first of ?runs="),
            "spread_rule",
            string(),
            "measures",
            described(
                mapOf(string()),
                "What each compared measure counts, by id: cycles, ipc, simulated_time_us, then"
                    + " those ?measures= asked for"),
            "runs",
            array(ref("ComparedRun")),
            "changes",
            array(ref("RunChange"))));
  }
}
