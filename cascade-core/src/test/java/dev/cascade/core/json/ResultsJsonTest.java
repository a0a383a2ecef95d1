package dev.cascade.core.json;

import static dev.cascade.core.json.ApiJsonTest.sent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelResult;
import dev.cascade.core.Spread;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kernels and results written with the API's mapping, sent as text, read back: equal. */
final class ResultsJsonTest {

  @Test
  void kernel_roundTrips_withItsStatsInOrder() throws IOException {
    JsonNode written = sent(ResultsJson.writeKernel(JsonSamples.kernel(), 1980.0));

    KernelResult read = ResultsJson.readKernel(written);
    assertThat(read).isEqualTo(JsonSamples.kernel());
    assertThat(read.stats().keySet()).containsExactly("gpu_sim_cycle", "gpu_ipc", "gpu_occupancy");
    assertThat(written.get("simulated_time_us").asDouble()).isEqualTo(1000 / 1980.0);
    assertThat(
            sent(ResultsJson.writeKernel(JsonSamples.kernel(), null))
                .get("simulated_time_us")
                .isNull())
        .isTrue();
  }

  @Test
  void kernelEvent_hasNoStats_andNoTimeWithoutAClock() throws IOException {
    JsonNode written = sent(ResultsJson.writeKernelEvent(JsonSamples.kernel(), null));

    assertThat(written.has("stats")).isFalse();
    assertThat(written.has("simulated_time_us")).isFalse();
    assertThat(ResultsJson.readKernel(written).stats()).isEmpty();
  }

  @Test
  void simKernels_readsTheKernels() throws IOException {
    JsonNode written =
        sent(
            ResultsJson.writeSimKernels(
                JsonSamples.runningSim(), 1980.0, List.of(JsonSamples.kernel())));

    assertThat(ResultsJson.readSimKernels(written)).containsExactly(JsonSamples.kernel());
    assertThat(written.get("sim_id").asText()).isEqualTo("s_1");
  }

  @Test
  void spread_emptyAndNot_roundTrip() throws IOException {
    for (Spread spread : List.of(Spread.empty(), Spread.of(1.5), Spread.of(1000, 1010, 1001))) {
      assertThat(ResultsJson.readSpread(sent(ResultsJson.writeSpread(spread)))).isEqualTo(spread);
    }
  }

  @Test
  void kernelComparison_roundTrips() throws IOException {
    KernelComparison kernel = JsonSamples.comparison("kernel_1");
    assertThat(ResultsJson.readKernelComparison(sent(ResultsJson.writeKernelComparison(kernel))))
        .isEqualTo(kernel);
  }

  @Test
  void results_roundTrip() throws IOException {
    ConfigResult h100 =
        new ConfigResult(
            "SM90_H100",
            "sm_90",
            1980.0,
            2,
            2,
            List.of(JsonSamples.comparison("kernel_1")),
            JsonSamples.comparison(KernelComparison.TOTAL),
            List.of());
    ConfigResult gone =
        new ConfigResult(
            "SM90_GONE",
            null,
            null,
            1,
            0,
            List.of(),
            new KernelComparison(
                KernelComparison.TOTAL,
                0,
                List.of(),
                Spread.empty(),
                Spread.empty(),
                Spread.empty(),
                Spread.empty()),
            List.of("no clock"));

    JsonNode written = sent(ResultsJson.writeResults(JsonSamples.run(), List.of(h100, gone)));

    assertThat(ResultsJson.readResults(written)).containsExactly(h100, gone);
    assertThat(written.get("run_id").asText()).isEqualTo("r_1");
  }
}
