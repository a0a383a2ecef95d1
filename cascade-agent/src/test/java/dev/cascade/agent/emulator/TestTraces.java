package dev.cascade.agent.emulator;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Small post-processed traces written on the fly, for emulator and agent tests. */
public final class TestTraces {

  /** A kernel to write: its launch shape and each warp's instruction mix. */
  public record Kernel(
      String name,
      int gridX,
      int threadsPerBlock,
      int nregs,
      int shmem,
      int instructionsPerWarp,
      int globalLoadsPerWarp) {}

  /**
   * A kernel of {@code blocks} blocks of 128 threads, 24 instructions per warp, 4 of them loads.
   */
  public static Kernel kernel(String name, int blocks) {
    return new Kernel(name, blocks, 128, 32, 0, 24, 4);
  }

  private TestTraces() {}

  /** Writes {@code folder/kernelslist.g} and one {@code kernel-N.traceg} per kernel. */
  public static Path write(Path folder, List<Kernel> kernels) throws IOException {
    return write(folder, kernels, List.of());
  }

  /** As {@link #write(Path, List)}, with memcpy lines before the first kernel. */
  public static Path write(Path folder, List<Kernel> kernels, List<String> memcpys)
      throws IOException {
    Files.createDirectories(folder);
    List<String> list = new ArrayList<>(memcpys);
    for (int i = 0; i < kernels.size(); i++) {
      String file = "kernel-" + (i + 1) + ".traceg";
      list.add(file);
      writeKernel(folder.resolve(file), i + 1, kernels.get(i));
    }
    Files.write(folder.resolve("kernelslist.g"), list, StandardCharsets.UTF_8);
    return folder;
  }

  private static void writeKernel(Path file, int id, Kernel k) throws IOException {
    int warps = (k.threadsPerBlock() + 31) / 32;
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("-kernel name = " + k.name() + "\n");
      out.write("-kernel id = " + id + "\n");
      out.write("-grid dim = (" + k.gridX() + ",1,1)\n");
      out.write("-block dim = (" + k.threadsPerBlock() + ",1,1)\n");
      out.write("-shmem = " + k.shmem() + "\n");
      out.write("-nregs = " + k.nregs() + "\n");
      out.write("-binary version = 90\n");
      out.write("-cuda stream id = 0\n");
      out.write("-shmem base_addr = 0x00007f05b0000000\n");
      out.write("-local mem base_addr = 0x00007f05ae000000\n");
      out.write("-nvbit version = 1.7\n");
      out.write("-accelsim tracer version = 5\n");
      out.write("-enable lineinfo = 0\n\n");
      out.write(
          "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs]"
              + " mem_width [adrrescompress?] [mem_addresses] immediate\n\n");
      for (int block = 0; block < k.gridX(); block++) {
        out.write("\n#BEGIN_TB\n\nthread block = " + block + ",0,0\n");
        for (int warp = 0; warp < warps; warp++) {
          out.write("\nwarp = " + warp + "\ninsts = " + k.instructionsPerWarp() + "\n");
          for (int i = 0; i < k.instructionsPerWarp(); i++) {
            String pc = String.format("%04x", i * 16);
            if (i < k.globalLoadsPerWarp()) {
              out.write(pc + " ffffffff 1 R" + (i + 2) + " LDG.E 1 R2 4 1 0x7f0000000000 4 0 \n");
            } else if (i == k.instructionsPerWarp() - 1) {
              out.write(pc + " ffffffff 0 EXIT 0 0 0 \n");
            } else {
              out.write(pc + " ffff0000 1 R1 FFMA 2 R2 R3 0 0 \n");
            }
          }
        }
        out.write("\n#END_TB\n");
      }
    }
  }
}
