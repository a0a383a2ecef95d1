package dev.cascade.core.internal.trace;

import static dev.cascade.core.internal.trace.TestTraces.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceMetadataTest {

  @TempDir Path folder;

  private TraceMetadata.Read read(String json) {
    write(folder.resolve("metadata.json"), json);
    return TraceMetadata.read(folder);
  }

  private TraceMetadata parsed(String json) {
    TraceMetadata.Read read = read(json);
    assertThat(read).isInstanceOf(TraceMetadata.Parsed.class);
    return ((TraceMetadata.Parsed) read).metadata();
  }

  private String invalid(String json) {
    TraceMetadata.Read read = read(json);
    assertThat(read).isInstanceOf(TraceMetadata.Invalid.class);
    return ((TraceMetadata.Invalid) read).reason();
  }

  @Test
  void read_withoutTheFile_isAbsent() {
    assertThat(TraceMetadata.read(folder)).isInstanceOf(TraceMetadata.Absent.class);
  }

  @Test
  void read_takesEveryKnownKey() {
    TraceMetadata metadata =
        parsed(
            """
            {"status": "Done", "trace_gpu_arch": " sm_80 ", "suggested_sim_config": "SM80_A100",
             "model_name": "facebook/opt-125m", "model": "ignored when model_name is there",
             "traced_layers": ["model.decoder.layers.10.self_attn", "", 7],
             "sample": true, "error": null, "unknown": {"deep": [1, 2, 3]}}
            """);

    assertThat(metadata.status()).isEqualTo("done");
    assertThat(metadata.saysRunning()).isFalse();
    assertThat(metadata.saysFailed()).isFalse();
    assertThat(metadata.traceGpuArch()).isEqualTo("sm_80");
    assertThat(metadata.suggestedSimConfig()).isEqualTo("SM80_A100");
    assertThat(metadata.modelName()).isEqualTo("facebook/opt-125m");
    assertThat(metadata.tracedLayers()).containsExactly("model.decoder.layers.10.self_attn", "7");
    assertThat(metadata.sample()).isTrue();
    assertThat(metadata.error()).isNull();
  }

  @Test
  void read_fallsBackToDefaultsAndAlternativeKeys() {
    TraceMetadata metadata =
        parsed("{\"model\": {\"name\": \"llama\"}, \"layers\": \"layer.0\", \"sample\": \"true\"}");

    assertThat(metadata.status()).isNull();
    assertThat(metadata.traceGpuArch()).isEqualTo("sm_90");
    assertThat(metadata.suggestedSimConfig()).isNull();
    assertThat(metadata.modelName()).isEqualTo("llama");
    assertThat(metadata.tracedLayers()).containsExactly("layer.0");
    assertThat(metadata.sample()).isTrue();
    assertThat(parsed("{\"model\": \"opt\"}").modelName()).isEqualTo("opt");
    assertThat(parsed("{\"sample\": false}").sample()).isFalse();
  }

  @Test
  void read_statusRunningAndFailed() {
    assertThat(parsed("{\"status\": \"RUNNING\"}").saysRunning()).isTrue();
    TraceMetadata failed = parsed("{\"status\": \"failed\", \"reason\": \"tracer crashed\"}");
    assertThat(failed.saysFailed()).isTrue();
    assertThat(failed.failureReason()).isEqualTo("tracer crashed");
    assertThat(parsed("{\"status\": \"failed\", \"error_message\": \"e\"}").failureReason())
        .isEqualTo("e");
    assertThat(parsed("{\"status\": \"failed\"}").failureReason())
        .contains("metadata.json")
        .contains("no error");
  }

  @Test
  void read_truncatedJson_isInvalidNamingFileLineAndColumn() {
    assertThat(invalid("{\n  \"status\": \"done\",\n  \"model\": "))
        .startsWith("metadata.json:3:")
        .contains("not valid JSON");
  }

  @Test
  void read_otherBadContent_isInvalid() {
    assertThat(invalid("")).contains("metadata.json").contains("empty");
    assertThat(invalid("[1, 2]")).contains("JSON array").contains("expected a JSON object");
    assertThat(invalid("{\"a\": 1} {\"b\": 2}")).startsWith("metadata.json:1:");
  }

  @Test
  void read_aTraceGpuArchThatIsNoCudaArchitecture_isInvalidNamingFieldAndValue() {
    assertThat(invalid("{\"trace_gpu_arch\": 123}"))
        .contains("\"trace_gpu_arch\"")
        .contains("must be a string")
        .contains("the number 123");
    assertThat(invalid("{\"trace_gpu_arch\": {\"not\": \"text\"}}")).contains("an object");
    assertThat(invalid("{\"trace_gpu_arch\": \"sm_999\"}"))
        .contains("\"sm_999\"")
        .contains("not a CUDA architecture")
        .contains("sm_90");
    assertThat(invalid("{\"trace_gpu_arch\": \"../../etc\"}")).contains("\"../../etc\"");
    assertThat(parsed("{\"trace_gpu_arch\": \"sm_120\"}").traceGpuArch()).isEqualTo("sm_120");
    assertThat(parsed("{\"trace_gpu_arch\": null}").traceGpuArch()).isEqualTo("sm_90");
  }

  @Test
  void read_aFolderNamedMetadataJson_isInvalidNotAbsent() throws IOException {
    Files.createDirectories(folder.resolve("metadata.json").resolve("inner"));

    assertThat(TraceMetadata.read(folder))
        .isInstanceOfSatisfying(
            TraceMetadata.Invalid.class,
            invalid -> assertThat(invalid.reason()).contains("metadata.json is a folder"));
  }

  @Test
  void read_trailingJson_saysSoWithoutTheParsersClassNames() {
    assertThat(invalid("{\"a\": 1} {\"b\": 2}"))
        .contains("more than one JSON value")
        .doesNotContain("com.", "`", "JsonNode");
  }

  @Test
  void read_symbolicLink_isRefused() throws IOException {
    Path elsewhere = Files.writeString(folder.resolve("elsewhere.json"), "{}");
    Files.createSymbolicLink(folder.resolve("metadata.json"), elsewhere);

    assertThat(TraceMetadata.read(folder))
        .isInstanceOfSatisfying(
            TraceMetadata.Invalid.class,
            invalid -> assertThat(invalid.reason()).contains("symbolic link"));
  }
}
