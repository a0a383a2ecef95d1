package dev.cascade.core.internal.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Small inline trace folders for tests: metadata, kernels lists and tiny kernel traces. */
public final class TestTraces {

  private TestTraces() {}

  /** {@code <dataDir>/s3/cascade/accelsim-traces}. */
  public static Path tracesFolder(Path dataDir) {
    return TraceEngine.tracesFolder(dataDir);
  }

  /** A post-processed kernel trace: the header NVBit writes and one warp of one block. */
  public static String traceg(String kernelName, int id, String grid, String block) {
    return "-kernel name = "
        + kernelName
        + "\n-kernel id = "
        + id
        + "\n-grid dim = ("
        + grid
        + ")\n-block dim = ("
        + block
        + ")\n-shmem = 0\n-nregs = 16\n-binary version = 90\n-cuda stream id = 0"
        + "\n-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = 1.7"
        + "\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#traces format = [line_num] PC"
        + " mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?]"
        + " [mem_addresses] immediate\n\n\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\n"
        + "insts = 2\n0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 \n0010 ffffffff 0 EXIT 0 0 0"
        + " \n\n#END_TB\n";
  }

  /**
   * Writes a complete processed trace under {@code traceFolder}: {@code metadata.json} with {@code
   * metadataJson}, {@code traces/kernelslist.g} and {@code kernels} kernel files.
   */
  public static void writeProcessedTrace(Path traceFolder, String metadataJson, int kernels) {
    StringBuilder list = new StringBuilder("MemcpyHtoD,0x00007f05ae000000,2048\n");
    for (int i = 1; i <= kernels; i++) {
      write(
          traceFolder.resolve("traces/kernel-" + i + ".traceg"),
          traceg("k" + i, i, "2,1,1", "64,1,1"));
      list.append("kernel-").append(i).append(".traceg\n");
    }
    write(traceFolder.resolve("traces/kernelslist.g"), list.toString());
    write(traceFolder.resolve("metadata.json"), metadataJson);
  }

  /** Writes {@code text} to {@code file}, creating its folders; replaces what was there. */
  public static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Appends {@code text} to {@code file}, creating it and its folders. */
  public static void append(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(
          file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
