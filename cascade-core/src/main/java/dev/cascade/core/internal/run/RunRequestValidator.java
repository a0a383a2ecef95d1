package dev.cascade.core.internal.run;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.trace.TraceStore;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a run request before anything is written: the trace exists (404), is ready and not a
 * sample (409); entries are there, each config known, usable and of the trace's architecture, and
 * named once (422). Each error names the request field it is about.
 */
public final class RunRequestValidator {

  private final TraceStore traces;
  private final GpuConfigCatalog catalog;

  public RunRequestValidator(TraceStore traces, GpuConfigCatalog catalog) {
    this.traces = traces;
    this.catalog = catalog;
  }

  /** The trace and, per entry in order, its config; or the first problem found. */
  public Validated validate(String traceId, List<RunEntry> entries) {
    if (traceId == null || traceId.isBlank()) {
      throw new CascadeException(ErrorCode.INVALID, "trace_id is required", "trace_id");
    }
    if (!Trace.isValidId(traceId)) {
      throw Trace.invalidId(traceId);
    }
    Trace trace =
        traces
            .find(traceId)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "there is no trace \""
                            + traceId
                            + "\"; cascade traces list (or the web UI's Traces page) shows the"
                            + " ids",
                        "trace_id"));
    if (trace.sample()) {
      throw new CascadeException(
          ErrorCode.CONFLICT,
          "trace \"" + traceId + "\" is a sample: it can be browsed but not run",
          "trace_id");
    }
    if (trace.state() != TraceState.READY) {
      throw new CascadeException(
          ErrorCode.CONFLICT,
          "trace \""
              + traceId
              + "\" is "
              + trace.state().wireName()
              + (trace.reason() == null ? "" : " (" + trace.reason() + ")")
              + "; runs can launch once it is ready",
          "trace_id");
    }
    if (entries == null || entries.isEmpty()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "entries is empty; name at least one GPU config and a count from 1 to "
              + RunEntry.MAX_COUNT,
          "entries");
    }
    Map<String, GpuConfig> known = new LinkedHashMap<>();
    catalog.list().forEach(config -> known.put(config.name(), config));
    Set<String> seen = new HashSet<>();
    Map<RunEntry, GpuConfig> configs = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      RunEntry entry = entries.get(i);
      String field = "entries[" + i + "].gpu_config";
      if (!seen.add(entry.gpuConfig())) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "GPU config \""
                + entry.gpuConfig()
                + "\" appears more than once; give it one entry with the total count",
            field);
      }
      GpuConfig config = known.get(entry.gpuConfig());
      if (config == null) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "there is no GPU config \""
                + entry.gpuConfig()
                + "\" in "
                + catalog.source()
                + NameSuggestions.closest(entry.gpuConfig(), known.keySet())
                    .map(
                        name -> "; did you mean \"" + name + "\"? (cascade configs lists them all)")
                    .orElse("; known: " + String.join(", ", known.keySet())),
            field);
      }
      if (!config.usable()) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "GPU config \"" + entry.gpuConfig() + "\" cannot be used: " + config.reason(),
            field);
      }
      if (!config.arch().equals(trace.traceGpuArch())) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "GPU config \""
                + entry.gpuConfig()
                + "\" is "
                + config.arch()
                + " but trace \""
                + traceId
                + "\" was captured on "
                + trace.traceGpuArch()
                + "; a trace runs only on configs of its own architecture",
            field);
      }
      String kernelsField = "entries[" + i + "].kernels";
      entry
          .window()
          .filter(window -> window.last() > trace.kernelCount())
          .ifPresent(
              window -> {
                throw new CascadeException(
                    ErrorCode.INVALID,
                    "kernels \""
                        + window.text()
                        + "\" names kernel "
                        + window.last()
                        + " but trace \""
                        + traceId
                        + "\" has "
                        + trace.kernelCount()
                        + " kernels; name positions 1 to "
                        + trace.kernelCount(),
                    kernelsField);
              });
      configs.put(entry, config);
    }
    return new Validated(trace, configs);
  }

  /** A request that passed: the trace and each entry's config. */
  public record Validated(Trace trace, Map<RunEntry, GpuConfig> configs) {}
}
