package dev.cascade.cli;

import dev.cascade.accelsim.trace.PostProcessor;
import dev.cascade.accelsim.trace.RawIds;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cascade postprocess DIR [--jobs N] [--json]}: raw traces ({@code kernelslist}, {@code
 * kernel-N.trace[.xz]}) to what Accel-Sim runs ({@code kernelslist.g}, {@code
 * kernel-N.traceg[.xz]}), byte for byte what Accel-Sim's post-processor writes. One progress line
 * per kernel goes to stderr as it finishes.
 */
@Command(
    name = "postprocess",
    mixinStandardHelpOptions = true,
    description = {
      "Raw traces (kernelslist, kernel-N.trace or .trace.xz) to kernelslist.g and kernel-N.traceg"
          + " (.traceg.xz), byte for byte what Accel-Sim's post-traces-processing writes. Kernels"
          + " run in parallel and stream; outputs appear whole or not at all, kernelslist.g last.",
      "Exit code 0 when every kernel was written, 1 when one could not be, 2 on a usage error."
    })
final class PostprocessCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "DIR",
      description =
          "A raw trace: a Cascade trace folder (with traces/kernelslist), a folder holding"
              + " kernelslist, or the kernelslist file.")
  Path trace;

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description = "Kernels processed at once (default: one per core).")
  Integer jobs;

  @Option(
      names = "--format",
      paramLabel = "text|tracez",
      description =
          "What to write per kernel: text (.traceg, or .traceg.xz for .trace.xz; the default) or"
              + " tracez (Accel-Sim 2.0's zstd .tracez, which holds the same text).")
  String format = "text";

  @Option(
      names = "--json",
      description =
          "Print {\"kernels_list\", \"memcpy_count\", \"seconds\", \"kernels\": [{\"input\","
              + " \"output\", \"thread_blocks\", \"instructions\", ...}]}.")
  boolean json;

  @Override
  public Integer call() {
    if (jobs != null && jobs < 1) {
      throw new ParameterException(spec.commandLine(), "--jobs must be at least 1, not " + jobs);
    }
    PostProcessor.Format outputFormat =
        switch (format.strip().toLowerCase(java.util.Locale.ROOT)) {
          case "text" -> PostProcessor.Format.TEXT;
          case "tracez" -> PostProcessor.Format.TRACEZ;
          default ->
              throw new ParameterException(
                  spec.commandLine(), "--format must be text or tracez, not '" + format + "'");
        };
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    AtomicInteger finished = new AtomicInteger();
    PostProcessor.Builder builder =
        PostProcessor.builder()
            .format(outputFormat)
            .listener(
                new PostProcessor.Listener() {
                  @Override
                  public void kernelFinished(PostProcessor.KernelResult kernel) {
                    err.println(
                        "postprocess: ["
                            + finished.incrementAndGet()
                            + "] "
                            + kernel.input().getFileName()
                            + " -> "
                            + kernel.output().getFileName()
                            + ": "
                            + describe(kernel));
                    err.flush();
                  }
                });
    if (jobs != null) {
      builder.parallelism(jobs);
    }
    PostProcessor.Result result;
    try {
      result = builder.build().process(trace);
    } catch (IOException e) {
      throw IoFailures.unchecked(e);
    }
    if (json) {
      printJson(out, result);
    } else {
      for (PostProcessor.KernelResult kernel : result.kernels()) {
        out.println("wrote " + kernel.output() + " (" + describe(kernel) + ")");
      }
      for (Path other : result.kernelsLists().subList(1, result.kernelsLists().size())) {
        out.println("wrote " + other + " (another CUDA context's list)");
      }
      out.println(
          "wrote "
              + result.kernelsList()
              + " ("
              + plural(result.kernels().size(), "kernel")
              + ", "
              + plural(result.memcpyCount(), "memcpy")
              + ") in "
              + seconds(result.elapsed())
              + " s");
    }
    out.flush();
    return 0;
  }

  private static String describe(PostProcessor.KernelResult kernel) {
    return plural(kernel.threadBlocks(), "thread block")
        + ", "
        + plural(kernel.instructions(), "instruction")
        + ", "
        + Formats.size(size(kernel.output()))
        + (kernel.ids() == RawIds.ELEVEN ? ", Accel-Sim 2.0 trace (11 ids)" : "")
        + (kernel.droppedTrywaits() > 0
            ? ", dropped " + plural(kernel.droppedTrywaits(), "TRYWAIT") + " nothing arrives on"
            : "")
        + (kernel.spillRuns() > 0 ? ", spilled " + kernel.spillRuns() + " times" : "")
        + ", "
        + seconds(kernel.elapsed())
        + " s";
  }

  private static void printJson(PrintWriter out, PostProcessor.Result result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("kernels_list", result.kernelsList().toString());
    json.put("raw_kernels_list", result.rawKernelsList().toString());
    json.put("kernels_lists", result.kernelsLists().stream().map(Path::toString).toList());
    json.put("memcpy_count", result.memcpyCount());
    json.put("seconds", result.elapsed().toNanos() / 1e9);
    List<Map<String, Object>> kernels = new ArrayList<>();
    for (PostProcessor.KernelResult kernel : result.kernels()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("input", kernel.input().toString());
      entry.put("output", kernel.output().toString());
      entry.put("thread_blocks", kernel.threadBlocks());
      entry.put("warps_per_block", kernel.warpsPerBlock());
      entry.put("instructions", kernel.instructions());
      entry.put("dropped_ldgsts", kernel.droppedLdgsts());
      entry.put("dropped_trywaits", kernel.droppedTrywaits());
      entry.put("raw_ids", kernel.ids().count());
      entry.put("text_bytes", kernel.textBytes());
      entry.put("size_on_disk", size(kernel.output()));
      entry.put("spill_runs", kernel.spillRuns());
      entry.put("seconds", kernel.elapsed().toNanos() / 1e9);
      kernels.add(entry);
    }
    json.put("kernels", kernels);
    out.println(Formats.json(json));
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw IoFailures.unchecked(e);
    }
  }

  private static String plural(long count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.2f", duration.toNanos() / 1e9);
  }
}
