package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Variants and sweeps over HTTP: the request's params and sweep, refusals, the config download. */
final class VariantApiIT {

  @TempDir Path dataDir;
  private ApiServer server;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createRun_withParamsAndASweep_storesTheVariantsAndNamesThem() {
    Response created =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": ["
                + "{\"gpu_config\": \"SM90_H100\", \"count\": 1,"
                + " \"params\": {\"-gpgpu_kernel_launch_latency\": 4000}},"
                + "{\"gpu_config\": \"SM90_H100\", \"count\": 2, \"label\": \"H100 SMs\","
                + " \"sweep\": {\"-gpgpu_n_clusters\": [\"66\", \"132\"]}}]}");

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode run = created.json();
    assertThat(run.get("entries")).hasSize(3);
    assertThat(run.get("entries").get(0).get("name").asText())
        .isEqualTo("SM90_H100 -gpgpu_kernel_launch_latency=4000");
    assertThat(run.get("entries").get(0).get("params").get("-gpgpu_kernel_launch_latency").asText())
        .isEqualTo("4000");
    assertThat(run.get("entries").get(1).get("name").asText())
        .isEqualTo("H100 SMs -gpgpu_n_clusters=66");
    assertThat(run.get("entries").get(2).get("name").asText())
        .isEqualTo("H100 SMs -gpgpu_n_clusters=132");
    assertThat(run.get("sims")).hasSize(5);
    assertThat(run.get("sims").get(1).get("gpu_config").asText())
        .isEqualTo("H100 SMs -gpgpu_n_clusters=66");

    Response config =
        server.get("/api/runs/" + run.get("id").asText() + "/entries/2/gpgpusim.config");
    assertThat(config.status()).isEqualTo(200);
    assertThat(config.body())
        .contains("-gpgpu_n_clusters 132 # set by a Cascade variant; was: 132")
        .contains("-gpgpu_kernel_launch_latency");
    Response missing =
        server.get("/api/runs/" + run.get("id").asText() + "/entries/2/trace.config");
    assertThat(missing.status()).isEqualTo(404);
  }

  @Test
  void createRun_withAnUnknownParam_answers422WithTheNearestNames() {
    Response refused =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1,"
                + " \"params\": {\"-gpgpu_n_clustres\": \"66\"}}]}");

    assertThat(refused.status()).isEqualTo(422);
    JsonNode error = refused.json().get("error");
    assertThat(error.get("field").asText()).isEqualTo("entries[0].params");
    assertThat(error.get("message").asText())
        .contains("-gpgpu_n_clustres")
        .contains("\"-gpgpu_n_clusters\"");
  }

  @Test
  void createRun_withAMalformedCacheSpec_answers422NamingTheFormat() {
    Response refused =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1,"
                + " \"params\": {\"-gpgpu_cache:dl2\": \"S:64:128:16,L:B:q:L:X,A:192:4\"}}]}");

    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.json().get("error").get("message").asText())
        .contains("-gpgpu_cache:dl2")
        .contains("\"q\" as its allocation policy")
        .contains("expected one of m, f, s");
  }

  @Test
  void createRun_withASweepValueThatIsNotAList_answers422NamingTheField() {
    Response refused =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1,"
                + " \"sweep\": {\"-gpgpu_n_clusters\": \"66\"}}]}");

    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.json().get("error").get("field").asText())
        .isEqualTo("entries[0].sweep.-gpgpu_n_clusters");
  }
}
