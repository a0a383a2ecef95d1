package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.Trace;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cascade traces list} and {@code cascade traces show} against a real server. */
final class TracesListShowIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dataDir;
  private static CliTestServer cascade;

  @BeforeAll
  static void start() throws Exception {
    cascade = new CliTestServer(dataDir);
  }

  @AfterAll
  static void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void list_showsEachTraceWithItsFactsMarkingSamplesAndFailures() {
    Result result = cascade.run("traces", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .containsPattern(
            "ID\\s+STATE\\s+ARCH\\s+KERNELS\\s+MODEL\\s+LAYERS\\s+SIZE\\s+AGE\\s+NOTES")
        .containsPattern(
            "demo\\s+ready\\s+sm_90\\s+3\\s+facebook/opt-125m\\s+1\\s+\\d+\\.\\d KiB\\s+\\S+")
        .containsPattern("sample\\s+ready\\s+sm_90\\s+2\\s+.*sample: browse only, cannot run")
        .containsPattern("broken\\s+failed\\s+.*profiler crashed");
  }

  @Test
  void list_json_isTheApiShape() throws Exception {
    Result result = cascade.run("traces", "list", "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode traces = JSON.readTree(result.out()).get("traces");
    assertThat(traces).hasSize(3);
    JsonNode demo = find(traces, "demo");
    assertThat(demo.get("state").asText()).isEqualTo("ready");
    assertThat(demo.get("kernel_count").asInt()).isEqualTo(3);
    assertThat(demo.get("runnable").asBoolean()).isTrue();
    assertThat(demo.has("kernels")).isFalse();
    assertThat(find(traces, "sample").get("sample").asBoolean()).isTrue();
    assertThat(find(traces, "broken").get("reason").asText()).contains("profiler crashed");
  }

  @Test
  void show_printsTheFactsAndAKernelTable() {
    Result result = cascade.run("traces", "show", "demo");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith("Trace demo\n")
        .containsPattern("state\\s+ready \\(runnable\\)")
        .containsPattern("arch\\s+sm_90")
        .containsPattern("suggested\\s+SM90_H100")
        .containsPattern("model\\s+facebook/opt-125m")
        .containsPattern("layers\\s+model.decoder.layers.10.self_attn")
        .containsPattern("kernels\\s+3")
        .containsPattern("#\\s+NAME\\s+GRID\\s+BLOCK\\s+WARP INSN \\(TRACE\\)\\s+FILE")
        .containsPattern("1\\s+kernel_1\\s+2,1,1\\s+32,1,1\\s+\\d+\\s+kernel-1.traceg")
        .containsPattern("3\\s+kernel_3\\s+2,1,1\\s+32,1,1\\s+\\d+\\s+kernel-3.traceg");
  }

  @Test
  void show_json_includesTheKernels() throws Exception {
    Result result = cascade.run("traces", "show", "demo", "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode trace = JSON.readTree(result.out());
    assertThat(trace.get("id").asText()).isEqualTo("demo");
    assertThat(trace.get("kernels")).hasSize(3);
    assertThat(trace.get("kernels").get(0).get("name").asText()).isEqualTo("kernel_1");
    assertThat(trace.get("kernels").get(0).get("file").asText()).isEqualTo("kernel-1.traceg");
  }

  @Test
  void show_failedTrace_showsTheReason() {
    Result result = cascade.run("traces", "show", "broken");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).containsPattern("state\\s+failed \\(.*profiler crashed\\)");
  }

  @Test
  void show_unknownTrace_failsWithTheServersMessage() {
    Result result = cascade.run("traces", "show", "nope");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).startsWith("cascade: ").contains("\"nope\"").doesNotContain("\tat ");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void show_idThatCannotBeATraceId_isAUsageError() {
    Result result = cascade.run("traces", "show", "..");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("trace id \"..\" is not valid");
    // The same line as every other entry point gives for the mistake.
    assertThat(result.err()).contains("cascade: " + Trace.invalidId("..").getMessage());
  }

  @Test
  void list_whenNothingListens_saysHowToStartCascade() {
    Result result = cascade.run("traces", "list", "--url", "http://127.0.0.1:1");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "cascade: cannot reach Cascade at http://127.0.0.1:1 (connection refused); start it"
                + " with ./cascade serve or set CASCADE_URL"
                + System.lineSeparator());
  }

  private static JsonNode find(JsonNode traces, String id) {
    for (JsonNode trace : traces) {
      if (trace.get("id").asText().equals(id)) {
        return trace;
      }
    }
    throw new AssertionError("no trace " + id + " in " + traces);
  }
}
