package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.ConfigResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EmbeddedRunExampleIT {

  @TempDir Path dataDir;

  @Test
  void run_printsEveryKernelOfBothConfigsAndTheSpeedup() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    List<ConfigResult> results = EmbeddedRunExample.run(dataDir, Fast.ENVIRONMENT, out);

    assertThat(results)
        .extracting(ConfigResult::gpuConfig)
        .containsExactly("SM90_H100", "SM90_H200");
    assertThat(results)
        .allSatisfy(
            config -> {
              assertThat(config.succeeded()).isEqualTo(2);
              assertThat(config.kernels()).hasSize(5).allMatch(kernel -> kernel.n() == 2);
            });
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .containsPattern("Run r_\\w+ succeeded")
        .containsPattern("SM90_H200 +flash_fwd_kernel<Flash_fwd_kernel_traits<\\.\\.\\. +2 ")
        .containsPattern("SM90_H100 +\\(all kernels\\) +2 ")
        .containsPattern("SM90_H200 runs the trace \\d+\\.\\d\\dx as fast as SM90_H100");
    assertThat(printed.lines()).hasSize(1 + 1 + 2 * 6 + 1);
  }

  @Test
  void runInTemporaryDataDir_leavesNothingBehind() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    List<ConfigResult> results = EmbeddedRunExample.runInTemporaryDataDir(Fast.ENVIRONMENT, out);

    assertThat(results).hasSize(2);
    String first = bytes.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    assertThat(first).startsWith("Cascade data in ").contains("cascade-example-");
    Path used = Path.of(first.substring("Cascade data in ".length(), first.indexOf(" (deleted")));
    assertThat(used).as(first).doesNotExist();
  }
}
