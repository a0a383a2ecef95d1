package dev.cascade.core.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SkippedFolder;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each record written with the API's mapping, sent as text, read back: equal. */
final class ApiJsonTest {

  static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode sent(Object written) throws IOException {
    return JSON.readTree(ApiJson.toJson(written));
  }

  @Test
  void trace_withKernels_roundTrips() throws IOException {
    assertThat(ApiJson.readTrace(sent(ApiJson.writeTrace(JsonSamples.trace(), true))))
        .isEqualTo(JsonSamples.trace());
  }

  @Test
  void traceList_carriesTheSkippedFoldersWithTheirReasons() throws IOException {
    List<SkippedFolder> skipped = List.of(new SkippedFolder("bad id", "not a valid trace id"));

    JsonNode sent = sent(ApiJson.writeTraceList(List.of(JsonSamples.trace()), skipped));

    assertThat(ApiJson.readSkippedFolders(sent)).isEqualTo(skipped);
    assertThat(ApiJson.readTraceList(sent)).hasSize(1);
    assertThat(ApiJson.readSkippedFolders(sent(ApiJson.writeTraceList(List.of())))).isEmpty();
  }

  @Test
  void traceList_leavesKernelsOut() throws IOException {
    List<Trace> read =
        ApiJson.readTraceList(sent(ApiJson.writeTraceList(List.of(JsonSamples.trace()))));

    assertThat(read.get(0).kernels()).isEmpty();
    assertThat(read).hasSize(1);
    assertThat(read.get(0).id()).isEqualTo("demo");
  }

  @Test
  void traceKernel_roundTrips() throws IOException {
    for (TraceKernel kernel : JsonSamples.trace().kernels()) {
      assertThat(ApiJson.readTraceKernel(sent(ApiJson.writeTraceKernel(kernel)))).isEqualTo(kernel);
    }
  }

  @Test
  void gpuConfig_usableAndNot_roundTrip() throws IOException {
    GpuConfig usable =
        new GpuConfig(
            "SM90_H100", "sm_90", 1980.0, 132, true, true, null, List.of("w"), null, null);
    GpuConfig unusable = GpuConfig.unusable("SM6_TITANX", "gpgpusim.config is missing", null);

    assertThat(
            ApiJson.readGpuConfigList(sent(ApiJson.writeGpuConfigList(List.of(usable, unusable)))))
        .containsExactly(usable, unusable);
    assertThat(sent(ApiJson.writeGpuConfig(unusable)).get("clock_mhz").isNull()).isTrue();
  }

  @Test
  void runEntry_roundTrips() throws IOException {
    RunEntry entry = new RunEntry("SM90_H100", 64);
    assertThat(ApiJson.readRunEntry(sent(ApiJson.writeRunEntry(entry)))).isEqualTo(entry);
  }

  @Test
  void run_withSims_roundTrips() throws IOException {
    JsonNode written = sent(ApiJson.writeRun(JsonSamples.run(), JsonSamples.T0.plusSeconds(9)));

    assertThat(ApiJson.readRun(written)).isEqualTo(JsonSamples.run());
    assertThat(written.get("sims").get(0).get("heartbeat_age_s").asDouble()).isEqualTo(1.0);
    assertThat(written.get("state").asText()).isEqualTo("active");
  }

  @Test
  void runSummary_countsSimsByState_andIsNotAWholeRun() throws IOException {
    JsonNode summary = sent(RunListJson.writeSummary(JsonSamples.run()));

    assertThat(summary.get("id").asText()).isEqualTo("r_1");
    assertThat(summary.get("sims_by_state").toString()).isEqualTo("{\"running\":1,\"failed\":1}");
    assertThatThrownBy(() -> ApiJson.readRun(summary))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"sims\"");
  }

  @Test
  void sim_roundTrips_asARunAndAnEventShowIt() throws IOException {
    for (Sim sim : List.of(JsonSamples.runningSim(), JsonSamples.failedSim())) {
      assertThat(ApiJson.readSim(sent(ApiJson.writeSim(sim)))).isEqualTo(sim);
      assertThat(ApiJson.readSim(sent(ApiJson.writeSim(sim, JsonSamples.T0)))).isEqualTo(sim);
    }
  }

  @Test
  void sim_withoutCreatedAt_isRefusedNamingTheField() {
    assertThatThrownBy(() -> ApiJson.readSim(JSON.readTree("{\"id\": \"s_1\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"run_id\"");
  }

  @Test
  void event_roundTrips() throws IOException {
    SimEvent event =
        new SimEvent(
            41,
            "r_1",
            "s_1",
            SimEvent.Kind.SIM,
            JsonSamples.T0,
            ApiJson.toJson(ApiJson.writeSim(JsonSamples.runningSim())));

    assertThat(ApiJson.readEvent(JSON.readTree(ApiJson.writeEvent(event)))).isEqualTo(event);
  }

  @Test
  void logEvent_roundTrips_andSaysWhatItSkipped() throws IOException {
    JsonNode written = sent(ApiJson.writeLogEvent(List.of("a", "b"), 3));

    assertThat(ApiJson.readLogEventLines(written)).containsExactly("a", "b");
    assertThat(written.get("skipped").asLong()).isEqualTo(3);
    assertThat(sent(ApiJson.writeLogEvent(List.of(), 0)).has("skipped")).isFalse();
  }

  @Test
  void error_roundTrips_byWireName() throws IOException {
    CascadeException error =
        new CascadeException(ErrorCode.INVALID, "count must be 1 to 64", "entries[0].count");

    CascadeException read = ApiJson.readError(422, sent(ApiJson.writeError(error))).orElseThrow();

    assertThat(read.code()).isEqualTo(ErrorCode.INVALID);
    assertThat(read.getMessage()).isEqualTo("count must be 1 to 64");
    assertThat(read.field()).isEqualTo("entries[0].count");
  }

  @Test
  void error_ofACodeWithoutAConstant_goesByStatus() throws IOException {
    JsonNode body = sent(ApiJson.writeError("method_not_allowed", "use GET", null));

    assertThat(ApiJson.readError(405, body).orElseThrow().code()).isEqualTo(ErrorCode.BAD_REQUEST);
    assertThat(ApiJson.readError(502, JSON.readTree("{}"))).isEmpty();
  }
}
