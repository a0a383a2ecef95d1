package dev.cascade.core.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * A long trace made from the real traces in the fixtures, for kernel sampling: a 24-layer model
 * whose every layer launches the {@code flashinfer-gemm} trace's eight kernels six times (48 small
 * launches) and one {@code flashinfer-prefill} attention kernel, 1,176 launches in all. The
 * attention kernel comes in two launch shapes (grid {@code (1,1,4)} on even layers, {@code (2,1,4)}
 * on odd ones: every thread block twice) and with a KV length that varies by layer (each warp runs
 * 0 to 120 more instructions, its first ones again), so launches of one shape differ in instruction
 * count and cycles as real decode steps do.
 *
 * <p>Each distinct kernel is written once (xz-compressed) and the trace's {@code kernel-N} files
 * are hard links to it, so the trace takes a few megabytes whatever its length.
 */
public final class LongTraces {

  public static final int LAYERS = 24;
  public static final int GEMM_REPEATS = 6;
  public static final int[] EXTRA_INSTRUCTIONS = {0, 30, 60, 90, 120};

  private LongTraces() {}

  /** Launches per layer: the gemm trace's kernels {@value #GEMM_REPEATS} times, one attention. */
  public static int launches(int gemmKernels) {
    return LAYERS * (gemmKernels * GEMM_REPEATS + 1);
  }

  /**
   * Writes the trace into {@code folder} ({@code traces/kernelslist.g}, the kernel files and {@code
   * metadata.json} saying {@code sm_90}) from {@code realTraces}, the fixtures' {@code real-traces}
   * folder, with the distinct kernels in {@code parts} (on the same file system, outside the
   * trace). Returns the number of launches.
   */
  public static int write(Path realTraces, Path folder, Path parts) throws IOException {
    Path traces = Files.createDirectories(folder.resolve("traces"));
    Files.createDirectories(parts);
    Path gemm = realTraces.resolve("flashinfer-gemm");
    List<Path> gemmKernels = new ArrayList<>();
    for (String line : Files.readAllLines(gemm.resolve("kernelslist.g"))) {
      if (!line.isBlank()) {
        Path part = parts.resolve("gemm-" + line.strip());
        Files.copy(gemm.resolve(line.strip()), part);
        gemmKernels.add(part);
      }
    }
    List<String> prefill =
        decompressed(realTraces.resolve("flashinfer-prefill/kernel-1.traceg.xz"));
    Path[][] attention = new Path[2][EXTRA_INSTRUCTIONS.length];
    for (int shape = 0; shape < 2; shape++) {
      for (int v = 0; v < EXTRA_INSTRUCTIONS.length; v++) {
        Path part = parts.resolve("attention-" + (shape + 1) + "x-" + v + ".traceg.xz");
        try (Writer out =
            new java.io.OutputStreamWriter(
                xz(Files.newOutputStream(part)), StandardCharsets.UTF_8)) {
          for (String line : attentionVariant(prefill, shape + 1, EXTRA_INSTRUCTIONS[v])) {
            out.write(line);
            out.write('\n');
          }
        }
        attention[shape][v] = part;
      }
    }
    StringBuilder list = new StringBuilder();
    int position = 0;
    for (int layer = 0; layer < LAYERS; layer++) {
      for (int r = 0; r < GEMM_REPEATS; r++) {
        for (Path kernel : gemmKernels) {
          position++;
          link(traces, position, kernel, list);
        }
      }
      position++;
      link(traces, position, attention[layer % 2][(layer * 3) % EXTRA_INSTRUCTIONS.length], list);
    }
    Files.writeString(traces.resolve("kernelslist.g"), list);
    Files.writeString(
        folder.resolve("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\", \"model_name\":"
            + " \"24-layer model of the fixtures' gemm and prefill kernels\"}");
    return position;
  }

  private static void link(Path traces, int position, Path part, StringBuilder list)
      throws IOException {
    String name = "kernel-" + position + ".traceg.xz";
    Files.createLink(traces.resolve(name), part);
    list.append(name).append('\n');
  }

  /**
   * The prefill kernel launched {@code copies} times wider in x (every thread block again at x +
   * the grid's x), each warp running its first {@code extra} instructions once more.
   */
  static List<String> attentionVariant(List<String> prefill, int copies, int extra) {
    List<String> header = new ArrayList<>();
    List<List<String>> blocks = new ArrayList<>();
    List<String> block = null;
    int gridX = 1;
    for (int i = 0; i < prefill.size(); i++) {
      String line = prefill.get(i);
      if (block == null && !line.startsWith("#BEGIN_TB")) {
        if (line.startsWith("-grid dim = (")) {
          String[] dims = line.substring("-grid dim = (".length(), line.length() - 1).split(",");
          gridX = Integer.parseInt(dims[0].strip());
          line = "-grid dim = (" + gridX * copies + "," + dims[1] + "," + dims[2] + ")";
        }
        header.add(line);
      } else if (line.startsWith("#BEGIN_TB")) {
        block = new ArrayList<>();
        block.add(line);
      } else if (line.startsWith("#END_TB")) {
        block.add(line);
        blocks.add(block);
        block = null;
      } else if (line.startsWith("insts = ")) {
        int n = Integer.parseInt(line.substring("insts = ".length()).strip());
        List<String> instructions = prefill.subList(i + 1, i + 1 + n);
        int again = Math.min(extra, n - 1); // the last instruction (EXIT) stays last
        block.add("insts = " + (n + again));
        block.addAll(instructions.subList(0, again));
        block.addAll(instructions);
        i += n;
      } else {
        block.add(line);
      }
    }
    List<String> out = new ArrayList<>(header);
    for (int copy = 0; copy < copies; copy++) {
      for (List<String> tb : blocks) {
        for (String line : tb) {
          if (line.startsWith("thread block = ") && copy > 0) {
            String[] xyz = line.substring("thread block = ".length()).split(",");
            line =
                "thread block = "
                    + (Integer.parseInt(xyz[0].strip()) + copy * gridX)
                    + ","
                    + xyz[1].strip()
                    + ","
                    + xyz[2].strip();
          }
          out.add(line);
        }
      }
    }
    return out;
  }

  private static List<String> decompressed(Path xz) throws IOException {
    try (InputStream in = new XZInputStream(Files.newInputStream(xz));
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return reader.lines().toList();
    }
  }

  private static OutputStream xz(OutputStream out) throws IOException {
    return new XZOutputStream(out, new LZMA2Options(1));
  }
}
