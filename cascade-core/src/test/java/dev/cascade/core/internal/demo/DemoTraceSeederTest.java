package dev.cascade.core.internal.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.accelsim.trace.KernelInfo;
import dev.cascade.accelsim.trace.TraceInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DemoTraceSeederTest {

  @TempDir Path traces;

  @Test
  void seedIfEmpty_writesADemoAndASampleTheTraceReaderAccepts() throws IOException {
    assertThat(DemoTraceSeeder.seedIfEmpty(traces)).containsExactly("demo", "sample-llama-mlp");

    TraceInfo demo = TraceInfo.readCountingInstructions(traces.resolve("demo"));
    assertThat(demo.kernelCount()).isEqualTo(5);
    assertThat(demo.kernels())
        .extracting(KernelInfo::threadBlocks)
        .containsExactly(36L, 512L, 144L, 12L, 512L);
    assertThat(demo.kernels())
        .allSatisfy(kernel -> assertThat(kernel.header().binaryVersion()).isEqualTo(90));
    // 4 warps a block; GEMM: 5 + 12 * 10 + 1 instructions a warp.
    assertThat(demo.kernels().getFirst().instructions()).hasValue(36L * 4 * (5 + 12 * 10 + 1));
    // The residual adds: 2 loads, 2 adds and a store per row, 8 rows a warp.
    assertThat(demo.kernels().get(1).instructions()).hasValue(512L * 4 * (5 + 8 * 5 + 1));
    assertThat(Files.readString(traces.resolve("demo/metadata.json")))
        .contains("\"trace_gpu_arch\": \"sm_90\"");
    assertThat(Files.readString(traces.resolve("sample-llama-mlp/metadata.json")))
        .contains("\"sample\": true");
  }

  @Test
  void seedIfEmpty_leavesAFolderWithTracesAlone() throws IOException {
    Files.createDirectories(traces.resolve("mine"));

    assertThat(DemoTraceSeeder.seedIfEmpty(traces)).isEmpty();
    assertThat(traces.resolve("demo")).doesNotExist();
  }
}
