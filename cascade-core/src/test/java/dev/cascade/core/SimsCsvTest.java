package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.Rfc4180;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tidy CSV's rules that a run on a server does not show: windows, names, odd numbers. */
final class SimsCsvTest {

  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

  @Test
  void write_numbersKernelsThroughTheWindowAndRenamesAStatisticNamedLikeAnIdColumn()
      throws IOException {
    Sim windowed =
        Sim.pending("s_1", "r_1", "SM90_H100", 0, 5, T0)
            .withKernels("2,4-5", 3)
            .withProvenance(
                new Provenance("sha256:t", null, "cascade-emulator-2.0", null, null, null));
    Run run = new Run("r_1", "demo", List.of(new RunEntry("SM90_H100", 1)), T0, List.of(windowed));
    Map<String, Number> stats = new LinkedHashMap<>();
    stats.put("cycles", 7L); // a statistic called like an id column
    stats.put("gpu_ipc", 0.000025);
    stats.put("big", 1.0e20);
    List<KernelResult> kernels =
        List.of(
            new KernelResult(0, "k", 1, 0, 10, 20, 2.0, stats),
            new KernelResult(1, "k", 2, 1, 10, 20, 2.0, Map.of()),
            new KernelResult(2, "k", 3, 2, 10, 20, 2.0, Map.of()));
    StringBuilder out = new StringBuilder();

    SimsCsv.write(run, sim -> kernels, out);

    List<List<String>> records = Rfc4180.parse(out.toString());
    List<String> header = records.getFirst();
    assertThat(header).endsWith("stat:cycles", "gpu_ipc", "big");
    assertThat(records).hasSize(4);
    List<String> first = records.get(1);
    assertThat(first.get(header.indexOf("kernel_window"))).isEqualTo("2,4-5");
    assertThat(records.subList(1, 4))
        .extracting(row -> row.get(header.indexOf("kernel_number")))
        .containsExactly("2", "4", "5");
    assertThat(first.get(header.indexOf("cycles"))).isEqualTo("10");
    assertThat(first.get(header.indexOf("stat:cycles"))).isEqualTo("7");
    assertThat(first.get(header.indexOf("gpu_ipc"))).isEqualTo("0.000025"); // no exponent
    assertThat(first.get(header.indexOf("big"))).isEqualTo("100000000000000000000");
    assertThat(first.get(header.indexOf("trace_hash"))).isEqualTo("sha256:t");
    assertThat(first.get(header.indexOf("config_hash"))).isEmpty();
    assertThat(records.get(2).get(header.indexOf("gpu_ipc"))).isEmpty();
  }
}
