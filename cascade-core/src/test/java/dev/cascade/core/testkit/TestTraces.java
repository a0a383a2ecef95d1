package dev.cascade.core.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Small traces written into a data dir's traces folder, as an upload would leave them: {@code
 * traces/kernelslist.g}, a header-only {@code kernel-k.traceg} per kernel (named {@code kernel_k},
 * grid {@code 2,1,1}, block {@code 32,1,1}) and {@code metadata.json}.
 */
public final class TestTraces {

  /** The metadata of a complete trace captured on {@code sm_90}. */
  public static final String READY = "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\"}";

  private TestTraces() {}

  /** Where the trace {@code id} lives under {@code dataDir}. */
  public static Path folder(Path dataDir, String id) {
    return dataDir.resolve("s3/cascade/accelsim-traces").resolve(id);
  }

  /** A processed trace of {@code kernels} small kernels; {@code metadata} is metadata.json. */
  public static Path write(Path dataDir, String id, int kernels, String metadata)
      throws IOException {
    Path folder = folder(dataDir, id);
    Path traces = Files.createDirectories(folder.resolve("traces"));
    StringBuilder list = new StringBuilder();
    for (int k = 1; k <= kernels; k++) {
      list.append("kernel-").append(k).append(".traceg\n");
      Files.writeString(
          traces.resolve("kernel-" + k + ".traceg"),
          "-kernel name = kernel_"
              + k
              + "\n-kernel id = "
              + k
              + "\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"
              + "-binary version = 90\n-cuda stream id = 0\n\n#traces format = threadblock_x"
              + " threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] opcode"
              + " src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n");
    }
    Files.writeString(traces.resolve("kernelslist.g"), list);
    Files.writeString(folder.resolve("metadata.json"), metadata);
    return folder;
  }

  /** A ready trace on {@code sm_90} of {@code kernels} kernels. */
  public static Path writeReady(Path dataDir, String id, int kernels) throws IOException {
    return write(dataDir, id, kernels, READY);
  }
}
