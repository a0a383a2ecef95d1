package dev.cascade.cli;

import dev.cascade.accelsim.trace.Dim3;
import dev.cascade.accelsim.trace.KernelHeader;
import dev.cascade.accelsim.trace.KernelInfo;
import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceInfo;
import dev.cascade.core.KernelNames;
import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import dev.cascade.core.SamplingPlans;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.json.SamplingJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cascade trace-info DIR [--instructions] [--json]}: the kernel count and per-kernel facts
 * of a post-processed trace, read from {@code kernelslist.g} and each kernel's header.
 */
@Command(
    name = "trace-info",
    mixinStandardHelpOptions = true,
    description = {
      "Kernel count and per-kernel facts of a trace folder: name, grid, block, registers, shared"
          + " memory, SASS binary version and size on disk, read from kernelslist.g and each"
          + " kernel's header (a few KB of each file, xz or not).",
      "Exit code 0 when the trace was read, 1 when it could not be, 2 on a usage error."
    })
final class TraceInfoCommand implements Callable<Integer> {

  /** As wide as {@link KernelNames} makes a readable name, so none is cut twice. */
  private static final int NAME_WIDTH = 64;

  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "DIR",
      description =
          "A trace: a Cascade trace folder (with traces/kernelslist.g), a folder holding"
              + " kernelslist.g, or the kernelslist.g file.")
  Path trace;

  @Option(
      names = "--instructions",
      description = "Also count each kernel's instructions (reads every kernel file in full).")
  boolean instructions;

  @Option(
      names = "--sampling",
      arity = "0..1",
      fallbackValue = "0.05",
      paramLabel = "TARGET_ERROR",
      description =
          "Also show the kernel sampling plan a sampled run would use (counts instructions as"
              + " --instructions does): strata, weights, the share of warp instructions simulated"
              + " and the predicted error; TARGET_ERROR is a fraction (default 0.05). Without a"
              + " value, put it after DIR, or write --sampling=0.05.")
  Double sampling;

  @Option(
      names = "--json",
      description =
          "Print {\"kernels_list\", \"kernel_count\", \"memcpy_count\", \"size_on_disk\","
              + " \"memcpys\": [...], \"kernels\": [{\"index\", \"file\", \"name\", \"grid\","
              + " \"block\", ...}]}.")
  boolean json;

  @Override
  public Integer call() {
    TraceInfo info;
    try {
      instructions |= sampling != null;
      info = instructions ? TraceInfo.readCountingInstructions(trace) : TraceInfo.read(trace);
    } catch (IOException e) {
      throw IoFailures.unchecked(e);
    }
    PrintWriter out = spec.commandLine().getOut();
    SamplingPlan plan = sampling == null ? null : plan(info);
    if (json) {
      printJson(out, info, plan);
    } else {
      printTable(out, info);
      if (plan != null) {
        printPlan(out, plan);
      }
    }
    out.flush();
    return 0;
  }

  private void printTable(PrintWriter out, TraceInfo info) {
    out.println("trace         " + info.kernelsList());
    out.println("kernels       " + info.kernelCount());
    out.println("memcpys       " + info.memcpyCount());
    if (info.contextCount() > 1) {
      out.println(
          "contexts      "
              + info.contextCount()
              + " (this is the first; the others: "
              + String.join(
                  ", ", info.otherContexts().stream().map(p -> p.getFileName().toString()).toList())
              + ")");
    }
    out.println("size on disk  " + Formats.size(info.sizeOnDisk()));
    info.instructions().ifPresent(total -> out.println("warp insns    " + total));
    if (info.kernels().isEmpty()) {
      return;
    }
    // Text columns (name, grid, block) are left-aligned, numbers right-aligned.
    List<String> headings =
        new ArrayList<>(
            List.of(
                ">#", ">id", "name", "grid", "block", ">blocks", ">bin", ">regs", ">shmem",
                ">size"));
    if (instructions) {
      headings.add(">warp_insns");
    }
    TextTable table = new TextTable(headings.toArray(String[]::new)).indent("  ");
    Map<String, String> readable =
        KernelNames.system().readable(info.kernels().stream().map(k -> k.header().name()).toList());
    for (KernelInfo kernel : info.kernels()) {
      KernelHeader header = kernel.header();
      List<Object> row =
          new ArrayList<>(
              List.of(
                  kernel.index(),
                  header.id(),
                  shorten(readable.get(header.name())),
                  header.grid().toString(),
                  header.block().toString(),
                  header.threadBlocks(),
                  header.binaryVersion(),
                  header.nregs(),
                  header.shmem(),
                  Formats.size(kernel.sizeOnDisk())));
      if (instructions) {
        row.add(kernel.instructions().orElse(0));
      }
      table.row(row.toArray());
    }
    out.println();
    table.print(out);
  }

  /** The plan of the trace read, as a sampled run of it would make it. */
  private SamplingPlan plan(TraceInfo info) {
    Sampling request;
    try {
      request = Sampling.of(sampling);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--sampling: " + e.getMessage());
    }
    List<TraceKernel> kernels = new ArrayList<>();
    for (KernelInfo kernel : info.kernels()) {
      KernelHeader header = kernel.header();
      kernels.add(
          new TraceKernel(
              kernel.index(),
              kernel.listedName(),
              header.name(),
              text(header.grid()),
              text(header.block()),
              kernel.instructions().isPresent() ? kernel.instructions().getAsLong() : null));
    }
    String id =
        info.folder().getFileName() == null ? "trace" : info.folder().getFileName().toString();
    return SamplingPlans.plan(id, kernels, request);
  }

  private static void printPlan(PrintWriter out, SamplingPlan plan) {
    out.println();
    out.println(
        "sampling      "
            + plan.summary()
            + ", predicted error \u00b1"
            + SamplingPlan.percent(plan.predictedError())
            + " (target "
            + SamplingPlan.percent(plan.request().targetError())
            + ")");
    out.println("simulated     kernels " + plan.window().text());
    TextTable table =
        new TextTable(
                ">rep", "name", "grid", "block", ">launches", ">warp_insns", ">weight", ">spread")
            .indent("  ");
    Map<String, String> readable =
        KernelNames.system()
            .readable(plan.strata().stream().map(SamplingPlan.Stratum::name).toList());
    for (SamplingPlan.Stratum stratum : plan.strata()) {
      table.row(
          stratum.representative(),
          shorten(readable.getOrDefault(stratum.name(), String.valueOf(stratum.name()))),
          String.valueOf(stratum.grid()),
          String.valueOf(stratum.block()),
          stratum.size(),
          stratum.warpInstructions(),
          String.format(Locale.ROOT, "%.3f", stratum.weight()),
          SamplingPlan.percent(stratum.dispersion()));
    }
    out.println();
    table.print(out);
    plan.notes().forEach(note -> out.println("note: " + note));
  }

  private static String text(Dim3 dims) {
    return dims.x() + "," + dims.y() + "," + dims.z();
  }

  private void printJson(PrintWriter out, TraceInfo info, SamplingPlan plan) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("kernels_list", info.kernelsList().toString());
    json.put("folder", info.folder().toString());
    json.put("kernel_count", info.kernelCount());
    json.put("memcpy_count", info.memcpyCount());
    json.put("context_count", info.contextCount());
    json.put("other_contexts", info.otherContexts().stream().map(Path::toString).toList());
    json.put("size_on_disk", info.sizeOnDisk());
    if (instructions) {
      json.put("instructions", info.instructions().orElse(0));
    }
    List<Map<String, Object>> memcpys = new ArrayList<>();
    for (KernelsList.Memcpy memcpy : info.memcpys()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("line", memcpy.lineNumber());
      entry.put("kind", memcpy.kind());
      entry.put("address", memcpy.addressHex());
      entry.put("bytes", memcpy.bytes());
      memcpys.add(entry);
    }
    json.put("memcpys", memcpys);
    List<Map<String, Object>> kernels = new ArrayList<>();
    for (KernelInfo kernel : info.kernels()) {
      KernelHeader header = kernel.header();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("index", kernel.index());
      entry.put("file", kernel.listedName());
      entry.put("path", kernel.file().toString());
      entry.put("name", header.name());
      entry.put("kernel_id", header.id());
      entry.put("grid", dims(header.grid()));
      entry.put("block", dims(header.block()));
      entry.put("thread_blocks", header.threadBlocks());
      entry.put("threads_per_block", header.threadsPerBlock());
      entry.put("warps_per_block", header.warpsPerBlock());
      entry.put("shmem", header.shmem());
      entry.put("nregs", header.nregs());
      entry.put("binary_version", header.binaryVersion());
      entry.put("cuda_stream_id", header.cudaStreamId());
      entry.put("nvbit_version", header.nvbitVersion());
      entry.put("tracer_version", header.tracerVersion());
      entry.put("size_on_disk", kernel.sizeOnDisk());
      if (kernel.instructions().isPresent()) {
        entry.put("instructions", kernel.instructions().getAsLong());
      }
      Map<String, String> fields = new LinkedHashMap<>();
      header.fields().forEach((key, value) -> fields.put(snakeCase(key), value));
      entry.put("header", fields);
      kernels.add(entry);
    }
    json.put("kernels", kernels);
    if (plan != null) {
      json.put("sampling", SamplingJson.writePlan(plan));
    }
    out.println(Formats.json(json));
  }

  private static List<Integer> dims(Dim3 dims) {
    return List.of(dims.x(), dims.y(), dims.z());
  }

  private static String snakeCase(String key) {
    return key.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  private static String shorten(String name) {
    return name.length() <= NAME_WIDTH ? name : name.substring(0, NAME_WIDTH - 3) + "...";
  }
}
