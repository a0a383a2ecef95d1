package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AuthIT {

  private static final String TOKEN = "s3cret-token";
  private static final String[] USER = {"Authorization", "Bearer " + TOKEN};

  @TempDir Path dataDir;
  private ApiServer server;

  @BeforeEach
  void startWithAToken() throws IOException {
    server = ApiServer.start(dataDir, settings -> settings.withToken(TOKEN));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void userEndpoints_needTheServersToken() {
    for (String path :
        List.of(
            "/api/runs",
            "/api/traces",
            "/api/traces/demo",
            "/api/gpu-configs",
            "/api/openapi.json",
            "/api/runs/r_x",
            "/api/runs/r_x/events",
            "/api/runs/r_x/results",
            "/api/runs/r_x/results.csv",
            "/api/sims/s_x/log",
            "/api/sims/s_x/kernels")) {
      Response none = server.get(path);
      Response wrong = server.get(path, "Authorization", "Bearer nope");
      assertThat(none.status()).as(path).isEqualTo(401);
      assertThat(none.errorCode()).as(path).isEqualTo("unauthorized");
      assertThat(none.headers().firstValue("WWW-Authenticate")).as(path).isPresent();
      assertThat(wrong.status()).as(path).isEqualTo(401);
      assertThat(wrong.errorCode()).as(path).isEqualTo("unauthorized");
    }
    assertThat(server.post("/api/runs", "{}").status()).isEqualTo(401);
    assertThat(server.post("/api/runs/r_x/cancel", "").status()).isEqualTo(401);
  }

  @Test
  void userEndpoints_answerWithTheToken() {
    assertThat(server.get("/api/runs", USER).status()).isEqualTo(200);
    assertThat(server.get("/api/traces/demo", USER).status()).isEqualTo(200);
    assertThat(server.get("/api/runs", "Authorization", "bearer " + TOKEN).status()).isEqualTo(200);
    Response created =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}",
            USER);
    assertThat(created.status()).isEqualTo(201);
  }

  @Test
  void healthAndMetrics_areOpen() {
    assertThat(server.get("/healthz").status()).isEqualTo(200);
    assertThat(server.get("/healthz").json().get("status").asText()).isEqualTo("ok");
    assertThat(server.get("/metrics").status()).isEqualTo(200);
  }

  @Test
  void simEndpoints_takeTheSimTokenNotTheUserToken() {
    Response created =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 2}]}",
            USER);
    JsonNode run = created.json();
    List<String> sims = ApiServer.simIds(run);
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 2);
    String a = sims.get(0);
    String b = sims.get(1);

    Response withUserToken =
        server.post("/api/sims/" + a + "/heartbeat", "{\"state\": \"running\"}", USER);
    Response aOnB =
        server.post("/api/sims/" + b + "/heartbeat", "{\"state\": \"running\"}", server.simAuth(a));
    Response aOnA = server.heartbeat(a, "{\"state\": \"running\"}");
    Response simTokenOnUserApi = server.get("/api/runs", server.simAuth(a));

    assertThat(withUserToken.status()).isEqualTo(403);
    assertThat(aOnB.status()).isEqualTo(403);
    assertThat(aOnA.status()).isEqualTo(200);
    assertThat(simTokenOnUserApi.status()).isEqualTo(401);
  }

  @Test
  void start_refusesAnAddressOtherThanLoopbackWithoutAToken() {
    ServerSettings everywhere = ServerSettings.defaults().withBind("0.0.0.0").withPort(0);

    assertThatThrownBy(() -> HttpApi.start(server.engine, everywhere))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("0.0.0.0")
        .hasMessageContaining("CASCADE_TOKEN")
        .satisfies(
            e -> {
              assertThat(((CascadeException) e).code()).isEqualTo(ErrorCode.INVALID);
              assertThat(((CascadeException) e).field()).isEqualTo("bind");
            });
  }

  @Test
  void start_refusesAPortInUseNamingIt() {
    ServerSettings taken = ServerSettings.defaults().withPort(server.api.port());

    assertThatThrownBy(() -> HttpApi.start(server.engine, taken))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining(Integer.toString(server.api.port()))
        .satisfies(e -> assertThat(((CascadeException) e).field()).isEqualTo("port"));
  }

  @Test
  void start_acceptsLoopbackWithoutATokenAndAnyAddressWithOne() {
    try (HttpApi loopback = HttpApi.start(server.engine, ServerSettings.defaults().withPort(0));
        HttpApi everywhere =
            HttpApi.start(
                server.engine,
                ServerSettings.defaults().withBind("0.0.0.0").withPort(0).withToken(TOKEN))) {
      assertThat(loopback.url()).isEqualTo("http://127.0.0.1:" + loopback.port());
      assertThat(everywhere.url()).isEqualTo("http://127.0.0.1:" + everywhere.port());
    }
  }

  @Test
  void start_readsShortAndMappedLoopbackFormsAndBracketsIpv6InItsUrl() {
    try (HttpApi shortForm =
            HttpApi.start(server.engine, ServerSettings.defaults().withBind("127.1").withPort(0));
        HttpApi mapped =
            HttpApi.start(
                server.engine,
                ServerSettings.defaults().withBind("::ffff:127.0.0.1").withPort(0))) {
      assertThat(shortForm.url()).isEqualTo("http://127.0.0.1:" + shortForm.port());
      assertThat(mapped.url()).isEqualTo("http://127.0.0.1:" + mapped.port());
    }
    Assumptions.assumeTrue(ipv6Loopback(), "this machine has no IPv6 loopback");
    try (HttpApi six =
        HttpApi.start(server.engine, ServerSettings.defaults().withBind("::1").withPort(0))) {
      assertThat(six.url()).isEqualTo("http://[::1]:" + six.port());
      assertThat(
              server
                  .http
                  .sendAsync(
                      java.net.http.HttpRequest.newBuilder(
                              java.net.URI.create(six.url() + "/healthz"))
                          .build(),
                      java.net.http.HttpResponse.BodyHandlers.discarding())
                  .join()
                  .statusCode())
          .isEqualTo(200);
    }
  }

  private static boolean ipv6Loopback() {
    try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
      socket.bind(new java.net.InetSocketAddress("::1", 0));
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
