package dev.cascade.core.internal.run;

import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.RunEntry;
import dev.cascade.core.StandardConfigs;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.catalog.ConfigVariants;
import dev.cascade.core.internal.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;

/**
 * Checks a run request before anything is written: the trace exists (404), is ready and not a
 * sample (409); entries are there, each config known, usable and of the trace's architecture, and
 * named once, each context one the trace has and each kernel window inside it (422). Each error
 * names the request field it is about.
 */
public final class RunRequestValidator {

  /** The most sims one run may ask for, sweeps expanded: 64 variants of 64 replicas. */
  public static final int MAX_SIMS = 4096;

  private final TraceStore traces;
  private final GpuConfigCatalog catalog;
  private final ConfigVariants variants;

  public RunRequestValidator(TraceStore traces, GpuConfigCatalog catalog, ConfigVariants variants) {
    this.traces = traces;
    this.catalog = catalog;
    this.variants = variants;
  }

  /**
   * The trace and, per entry in order (a sweep expanded into its variants, in place), the config
   * its sims run: the catalog's, or the variant its params make; or the first problem found.
   */
  public Validated validate(String traceId, List<RunEntry> requested) {
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
    if (requested == null || requested.isEmpty()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "entries is empty; name at least one GPU config and a count from 1 to "
              + RunEntry.MAX_COUNT,
          "entries");
    }
    List<RunEntry> entries = new java.util.ArrayList<>();
    List<Integer> requestIndex = new java.util.ArrayList<>();
    for (int i = 0; i < requested.size(); i++) {
      try {
        for (RunEntry variant : requested.get(i).expand()) {
          entries.add(variant);
          requestIndex.add(i);
        }
      } catch (IllegalArgumentException e) {
        throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "entries[" + i + "].sweep");
      }
    }
    long sims = entries.stream().mapToLong(RunEntry::count).sum();
    if (sims > MAX_SIMS) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "the run asks for "
              + sims
              + " sims ("
              + entries.size()
              + " configs and variants with their counts); at most "
              + MAX_SIMS
              + " per run: sweep fewer values or ask for fewer replicas",
          "entries");
    }
    Map<String, GpuConfig> known = new LinkedHashMap<>();
    catalog.list().forEach(config -> known.put(config.name(), config));
    Set<String> seen = new HashSet<>();
    Map<RunEntry, GpuConfig> configs = new LinkedHashMap<>();
    Map<RunEntry, TraceContext> contexts = new LinkedHashMap<>();
    List<RunEntry> checked = new ArrayList<>();
    for (int n = 0; n < entries.size(); n++) {
      RunEntry given = entries.get(n);
      int i = requestIndex.get(n);
      TraceContext context = context(trace, given, "entries[" + i + "].context");
      RunEntry entry =
          given.context() == null
              ? given
              : given.withContext(context.isFirst() ? TraceLayout.FIRST_CONTEXT : context.name());
      if (given.sampling() != null && !context.isFirst()) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "sampling plans cover the trace's first CUDA context; context \""
                + context.name()
                + "\" cannot be sampled: simulate it whole, or a window of it with kernels",
            "entries[" + i + "].context");
      }
      String field = "entries[" + i + "].gpu_config";
      if (!seen.add(entry.name())) {
        throw new CascadeException(
            ErrorCode.INVALID,
            (entry.name().equals(entry.gpuConfig()) ? "GPU config \"" : "variant \"")
                + entry.name()
                + "\" appears more than once; give it one entry with the total count",
            field);
      }
      if (!known.containsKey(entry.gpuConfig()) && catalog.standardConfigs().isPresent()) {
        entry = composed(entry, catalog.standardConfigs().get());
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
      config = variants.effective(config, entry, "entries[" + i + "]");
      if (!config.arch().equals(trace.traceGpuArch())) {
        throw new CascadeException(
            ErrorCode.INVALID,
            (entry.isVariant() ? "variant \"" : "GPU config \"")
                + entry.name()
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
      int kernelCount = context.kernelCount();
      String of =
          "trace \""
              + traceId
              + "\""
              + (context.isFirst() ? "" : " (context " + context.name() + ")");
      entry
          .window()
          .filter(window -> window.last() > kernelCount)
          .ifPresent(
              window -> {
                throw new CascadeException(
                    ErrorCode.INVALID,
                    "kernels \""
                        + window.text()
                        + "\" names kernel "
                        + window.last()
                        + " but "
                        + of
                        + " has "
                        + kernelCount
                        + " kernels; name positions 1 to "
                        + kernelCount,
                    kernelsField);
              });
      configs.put(entry, config);
      contexts.put(entry, context);
      checked.add(entry);
    }
    return new Validated(trace, configs, contexts, List.copyOf(checked));
  }

  /**
   * The CUDA context {@code entry} asks for: the first when it names none (nothing is read), else
   * the trace's context of that name (its list with or without {@code .g}); 422 naming the value
   * and the contexts the trace has when it has no such context.
   */
  private TraceContext context(Trace trace, RunEntry entry, String field) {
    if (entry.context() == null) {
      return TraceContext.first(trace.kernelCount());
    }
    Path folder = traces.folderOf(trace.id());
    Optional<Path> list = TraceLayout.findProcessedList(folder);
    if (list.isEmpty()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "context \""
              + entry.context()
              + "\" cannot be chosen: trace \""
              + trace.id()
              + "\" has no "
              + TraceLayout.PROCESSED_LIST
              + ", so no CUDA contexts; leave context out",
          field);
    }
    SequencedMap<String, Path> known = TraceLayout.contexts(list.get());
    String name =
        TraceLayout.contextName(list.get(), entry.context())
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.INVALID,
                        "trace \""
                            + trace.id()
                            + "\" has no CUDA context \""
                            + entry.context()
                            + "\"; its contexts: "
                            + String.join(", ", known.keySet())
                            + " ("
                            + TraceLayout.FIRST_CONTEXT
                            + " is the first, the default)",
                        field));
    if (name.equals(TraceLayout.FIRST_CONTEXT)) {
      return TraceContext.first(trace.kernelCount());
    }
    Path contextList = known.get(name);
    try {
      return new TraceContext(name, contextList, KernelsList.read(contextList).kernelCount());
    } catch (IOException | RuntimeException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "context \""
              + name
              + "\" of trace \""
              + trace.id()
              + "\" cannot be read ("
              + contextList.getFileName()
              + "): "
              + e.getMessage(),
          field);
    }
  }

  /**
   * An entry naming one of Accel-Sim's composed configs ({@code QV100-64SM}) as the variant it
   * stands for: its base's folder with the extras' options under the entry's own params, named as
   * the entry named it; the entry as it is when the name is not composed.
   */
  private static RunEntry composed(RunEntry entry, StandardConfigs standard) {
    return standard
        .resolve(entry.gpuConfig())
        .map(
            composed -> {
              java.util.Map<String, String> params = new LinkedHashMap<>(composed.params());
              params.putAll(entry.params());
              return new RunEntry(
                  composed.baseFolder(),
                  entry.count(),
                  entry.kernels(),
                  entry.timeLimit(),
                  entry.context(),
                  entry.sampling(),
                  params,
                  java.util.Map.of(),
                  entry.label() != null ? entry.label() : entry.gpuConfig());
            })
        .orElse(entry);
  }

  /**
   * A request that passed: the trace and, per entry, its config and its CUDA context; {@code
   * entries} are the request's with each sweep expanded into its variants, a context named as its
   * list ({@code kernelslist_ctx_0x2.g}) written as the context's name ({@code
   * kernelslist_ctx_0x2}). The maps are keyed by these entries.
   */
  public record Validated(
      Trace trace,
      Map<RunEntry, GpuConfig> configs,
      Map<RunEntry, TraceContext> contexts,
      List<RunEntry> entries) {

    /** The context of {@code entry}, one of {@link #entries}; the first when it has none. */
    TraceContext contextOf(RunEntry entry) {
      return contexts.getOrDefault(entry, TraceContext.first(trace.kernelCount()));
    }
  }
}
