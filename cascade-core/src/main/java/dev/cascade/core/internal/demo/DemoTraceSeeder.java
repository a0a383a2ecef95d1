package dev.cascade.core.internal.demo;

import dev.cascade.core.internal.demo.DemoKernel.Kind;
import dev.cascade.core.internal.trace.WrittenWhole;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The traces a new data dir starts with: {@code demo}, a small runnable trace of one decoder
 * layer's self-attention (five kernels), and {@code sample-llama-mlp}, a sample that can be browsed
 * but not run. Both are written into the traces folder as an upload would leave them, so the trace
 * store picks them up like any other.
 */
public final class DemoTraceSeeder {

  public static final String DEMO_ID = "demo";
  public static final String SAMPLE_ID = "sample-llama-mlp";

  /**
   * The residual adds' blocks: 512 blocks of 4 warps, 8 rows of 256 bytes each from two tensors, so
   * 8 MiB read: enough that DRAM bandwidth, not latency, bounds them (docs/emulator.md).
   */
  private static final int RESIDUAL_ADD_BLOCKS = 512;

  private static final List<DemoKernel> DEMO_KERNELS =
      List.of(
          new DemoKernel(
              "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64_qkv_proj",
              36,
              1,
              128,
              168,
              49152,
              12,
              Kind.GEMM),
          new DemoKernel(
              "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<c10::Half>>",
              RESIDUAL_ADD_BLOCKS,
              1,
              128,
              16,
              0,
              8,
              Kind.ELEMENTWISE),
          new DemoKernel(
              "flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 64, 4, c10::Half>>",
              12,
              12,
              128,
              255,
              65536,
              10,
              Kind.ATTENTION),
          new DemoKernel(
              "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64_out_proj",
              12,
              1,
              128,
              168,
              49152,
              12,
              Kind.GEMM),
          new DemoKernel(
              "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<c10::Half>>",
              RESIDUAL_ADD_BLOCKS,
              1,
              128,
              16,
              0,
              8,
              Kind.ELEMENTWISE));

  private static final List<DemoKernel> SAMPLE_KERNELS =
      List.of(
          new DemoKernel(
              "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_gate_up_proj",
              96,
              1,
              128,
              168,
              65536,
              8,
              Kind.GEMM),
          new DemoKernel(
              "void at::native::vectorized_elementwise_kernel<4, at::native::silu_mul<c10::Half>>",
              64,
              1,
              128,
              16,
              0,
              8,
              Kind.ELEMENTWISE),
          new DemoKernel(
              "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_down_proj",
              48,
              1,
              128,
              168,
              65536,
              8,
              Kind.GEMM));

  /**
   * The smoke trace's one kernel: two thread blocks of two warps, each loading, adding and storing
   * twice, in Volta's SASS (binary version {@value #SMOKE_BINARY_VERSION}), which every Accel-Sim
   * build since 2020 decodes; a build that knows only newer ISAs would say "unsupported binary
   * version".
   */
  private static final List<DemoKernel> SMOKE_KERNELS =
      List.of(new DemoKernel("cascade_doctor_smoke_kernel", 2, 1, 64, 16, 0, 2, Kind.SMOKE));

  /** The SASS binary version of the smoke trace's kernel: Volta's. */
  public static final int SMOKE_BINARY_VERSION = 70;

  private DemoTraceSeeder() {}

  /**
   * Writes the demo trace's processed files ({@code kernelslist.g} and its five kernels) into
   * {@code folder}, with no {@code metadata.json}: for running the emulator on it directly.
   */
  public static void writeDemo(Path folder) throws IOException {
    DemoTraceWriter.write(folder, DEMO_KERNELS);
  }

  /**
   * Writes a one-kernel processed trace into {@code folder}: {@code kernelslist.g} and a plain
   * {@code kernel-1.traceg}, small enough for a real Accel-Sim to run in seconds.
   */
  public static void writeSmoke(Path folder) throws IOException {
    DemoTraceWriter.write(folder, SMOKE_KERNELS, SMOKE_BINARY_VERSION, false);
  }

  /**
   * Writes the demo and sample traces into {@code tracesFolder} when it holds no trace yet. Returns
   * the ids written; empty when the folder already had traces.
   */
  public static List<String> seedIfEmpty(Path tracesFolder) throws IOException {
    Files.createDirectories(tracesFolder);
    try (var children = Files.list(tracesFolder)) {
      if (children.anyMatch(child -> !child.getFileName().toString().startsWith("."))) {
        return List.of();
      }
    }
    List<String> written = new ArrayList<>();
    writeTrace(
        tracesFolder.resolve(DEMO_ID),
        DEMO_KERNELS,
        """
        {
          "status": "complete",
          "model_name": "facebook/opt-125m",
          "traced_layers": ["model.decoder.layers.10.self_attn"],
          "trace_gpu_arch": "sm_90",
          "suggested_sim_config": "SM90_H100",
          "note": "A small trace made by Cascade for its demo, in Accel-Sim's format."
        }
        """);
    written.add(DEMO_ID);
    writeTrace(
        tracesFolder.resolve(SAMPLE_ID),
        SAMPLE_KERNELS,
        """
        {
          "status": "complete",
          "sample": true,
          "model_name": "meta-llama/Llama-3.1-8B",
          "traced_layers": ["model.layers.0.mlp"],
          "trace_gpu_arch": "sm_90",
          "suggested_sim_config": "SM90_H100",
          "note": "A sample to browse: samples are listed but never run."
        }
        """);
    written.add(SAMPLE_ID);
    return written;
  }

  private static void writeTrace(Path folder, List<DemoKernel> kernels, String metadata)
      throws IOException {
    DemoTraceWriter.write(folder.resolve("traces"), kernels);
    // metadata.json last: it is what says the upload is complete.
    Files.writeString(folder.resolve("metadata.json"), metadata);
    WrittenWhole.mark(folder);
  }
}
