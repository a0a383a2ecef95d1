package dev.cascade.core.internal.demo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Writes a small trace in Accel-Sim's processed format ({@code kernelslist.g} and {@code
 * kernel-N.traceg.xz}), as the tracer and post-processor would leave it: a header per kernel, then
 * every thread block with its warps' SASS instructions. The instructions are made up but shaped
 * like real ones (Hopper-era opcodes, register operands, coalesced global accesses), so the trace
 * reader, the emulator and a real Accel-Sim all accept it.
 */
final class DemoTraceWriter {

  private static final String FORMAT_LINE =
      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs]"
          + " mem_width [adrrescompress?] [mem_addresses] immediate";

  /** Room for one streamed tensor: the elementwise kernels' inputs and output never overlap. */
  private static final long STREAM_TENSOR_BYTES = 64L << 20;

  private DemoTraceWriter() {}

  /**
   * Writes {@code kernels} into {@code tracesFolder} (created when absent) as Hopper kernels
   * ({@code -binary version = 90}), each {@code .traceg.xz}.
   */
  static void write(Path tracesFolder, List<DemoKernel> kernels) throws IOException {
    write(tracesFolder, kernels, 90, true);
  }

  /**
   * Writes {@code kernels} into {@code tracesFolder} (created when absent) with this SASS binary
   * version in their headers (it picks the ISA table a real Accel-Sim decodes them with), as {@code
   * .traceg.xz} when {@code xz}, else as plain {@code .traceg}.
   */
  static void write(Path tracesFolder, List<DemoKernel> kernels, int binaryVersion, boolean xz)
      throws IOException {
    Files.createDirectories(tracesFolder);
    StringBuilder list = new StringBuilder();
    for (int k = 0; k < kernels.size(); k++) {
      String file = "kernel-" + (k + 1) + (xz ? ".traceg.xz" : ".traceg");
      writeKernel(tracesFolder.resolve(file), k + 1, kernels.get(k), binaryVersion, xz);
      list.append(file).append('\n');
    }
    Files.writeString(tracesFolder.resolve("kernelslist.g"), list.toString());
  }

  private static void writeKernel(
      Path file, int id, DemoKernel kernel, int binaryVersion, boolean compressed)
      throws IOException {
    try (OutputStream out = Files.newOutputStream(file);
        OutputStream text = compressed ? new XZOutputStream(out, new LZMA2Options(3)) : out;
        Writer writer = new BufferedWriter(new OutputStreamWriter(text, StandardCharsets.UTF_8))) {
      writer.write("-kernel name = " + kernel.name() + "\n");
      writer.write("-kernel id = " + id + "\n");
      writer.write("-grid dim = (" + kernel.gridX() + "," + kernel.gridY() + ",1)\n");
      writer.write("-block dim = (" + kernel.blockThreads() + ",1,1)\n");
      writer.write("-shmem = " + kernel.shmem() + "\n");
      writer.write("-nregs = " + kernel.nregs() + "\n");
      writer.write("-binary version = " + binaryVersion + "\n");
      writer.write("-cuda stream id = 0\n");
      writer.write("-shmem base_addr = 0x00007f0000000000\n");
      writer.write("-local mem base_addr = 0x00007f0002000000\n");
      writer.write("-nvbit version = 1.7.4\n");
      writer.write("-accelsim tracer version = 5\n");
      writer.write("-enable lineinfo = 0\n");
      writer.write("\n" + FORMAT_LINE + "\n\n");
      int warps = (kernel.blockThreads() + 31) / 32;
      long base = 0x7f04c2000000L + (long) id * 0x1000000L;
      for (int y = 0; y < kernel.gridY(); y++) {
        for (int x = 0; x < kernel.gridX(); x++) {
          int block = y * kernel.gridX() + x;
          writer.write("\n#BEGIN_TB\n\nthread block = " + x + "," + y + ",0\n");
          for (int warp = 0; warp < warps; warp++) {
            List<String> lines = warpInstructions(kernel, base, block, warp);
            writer.write("\nwarp = " + warp + "\ninsts = " + lines.size() + "\n");
            for (String line : lines) {
              writer.write(line);
              writer.write('\n');
            }
          }
          writer.write("\n#END_TB\n");
        }
      }
    }
  }

  private static List<String> warpInstructions(DemoKernel kernel, long base, int block, int warp) {
    Instructions out = new Instructions();
    long address = base + ((long) block * 4 + warp) * 512;
    if (kernel.kind() == DemoKernel.Kind.SMOKE) {
      out.add("1 R0 S2R 0 0 0");
      for (int i = 0; i < kernel.mainLoop(); i++) {
        out.memory("1 R2 LDG.E 1 R4", 4, address + i * 128L);
        out.memory("1 R3 LDG.E 1 R6", 4, address + i * 128L + 4096);
        out.add("1 R2 FADD 2 R2 R3 0 0");
        out.memory("0 STG.E 2 R8 R2", 4, address + i * 128L + 8192);
      }
      out.add("0 EXIT 0 0 0");
      return out.lines;
    }
    out.add("1 R1 IMAD.MOV.U32 2 R255 R255 0 0");
    out.add("1 R0 S2R 0 0 0");
    out.add("1 R2 S2R 0 0 0");
    out.add("1 R3 IMAD 2 R2 R0 0 0");
    out.add("0 ULDC.64 0 0 0");
    for (int i = 0; i < kernel.mainLoop(); i++) {
      switch (kernel.kind()) {
        case GEMM -> {
          out.memory("1 R8 LDG.E.128 1 R4", 16, address + i * 4096L);
          out.memory("1 R12 LDG.E.128 1 R6", 16, address + i * 4096L + 2048);
          out.add("0 STS.128 2 R3 R8 0 0");
          out.add("0 BAR.SYNC.DEFER_BLOCKING 0 0 0");
          out.add("1 R16 LDSM.16.M88.4 1 R3 0 0");
          out.add("1 R20 HMMA.16816.F32 3 R16 R12 R20 0 0");
          out.add("1 R24 HMMA.16816.F32 3 R16 R14 R24 0 0");
          out.add("1 R4 IADD3 3 R4 R255 R255 0 4096");
          out.add("0 ISETP.NE.AND 2 R4 R5 0 0");
          out.add("0 BRA 0 0 0");
        }
        case ATTENTION -> {
          out.memory("1 R8 LDG.E.128 1 R4", 16, address + i * 2048L);
          out.add("1 R16 LDSM.16.M88.4 1 R3 0 0");
          out.add("1 R20 HMMA.16816.F32 3 R16 R8 R20 0 0");
          out.add("1 R28 FMNMX 2 R20 R28 0 0");
          out.add("1 R30 FADD 2 R20 R28 0 0");
          out.add("1 R30 MUFU.EX2 1 R30 0 0");
          out.add("1 R32 FFMA 3 R30 R32 R34 0 0");
          out.add("1 R24 HMMA.16816.F32 3 R30 R10 R24 0 0");
          out.add("0 ISETP.NE.AND 2 R4 R5 0 0");
          out.add("0 BRA 0 0 0");
        }
        case SMOKE -> throw new IllegalStateException("written above");
        case ELEMENTWISE -> {
          // A residual add streams two tensors in and one out, each warp its own rows, so the
          // DRAM's bandwidth bounds it rather than its few instructions.
          long row = ((long) block * 4 + warp) * kernel.mainLoop() * 256L + i * 256L;
          out.memory("1 R8 LDG.E.64 1 R4", 8, base + row);
          out.memory("1 R12 LDG.E.64 1 R6", 8, base + STREAM_TENSOR_BYTES + row);
          out.add("1 R10 HADD2 2 R8 R12 0 0");
          out.add("1 R11 HADD2 2 R9 R13 0 0");
          out.memory("0 STG.E.64 2 R6 R10", 8, base + 2 * STREAM_TENSOR_BYTES + row);
        }
      }
    }
    out.add("0 EXIT 0 0 0");
    return out.lines;
  }

  /** Instruction lines with increasing PCs, all 32 threads active. */
  private static final class Instructions {
    final List<String> lines = new java.util.ArrayList<>();
    private int pc;

    void add(String body) {
      lines.add(String.format(Locale.ROOT, "%04x ffffffff %s ", pc, body));
      pc += 0x10;
    }

    /** A global access: base address and a 4-byte stride per thread (base_stride compression). */
    void memory(String body, int width, long address) {
      add(body + " " + width + " 1 0x" + Long.toHexString(address) + " " + width + " 0");
    }
  }
}
