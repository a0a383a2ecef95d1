package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No request, however malformed, gets a 500; every refusal is the API's JSON error body. */
final class MalformedRequestsIT {

  @TempDir Path dataDir;
  private ApiServer server;
  private String runId;
  private String simId;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir);
    JsonNode run = server.createRun(1);
    runId = run.get("id").asText();
    simId = ApiServer.simIds(run).getFirst();
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 1);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void malformedJson_is400() {
    for (String body :
        List.of(
            "{",
            "{\"trace_id\": }",
            "not json",
            "{\"trace_id\": \"demo\"} trailing",
            "{\"trace_id\": \"a\", \"trace_id\": \"b\"}",
            "{\"trace_id\": NaN}",
            "\u0000\u0001\u0002",
            "{\"trace_id\": \"demo\", \"entries\": [" + "[".repeat(5000) + "]}",
            "",
            "   ")) {
      Response response = server.post("/api/runs", body);
      assertThat(response.status()).as(body).isEqualTo(400);
      assertThat(response.errorCode()).as(body).isEqualTo("bad_request");
    }
  }

  @Test
  void wrongTypes_are422() {
    for (String body :
        List.of(
            "[]",
            "\"text\"",
            "42",
            "null",
            "true",
            "{\"trace_id\": [\"demo\"], \"entries\": []}",
            "{\"trace_id\": \"demo\", \"entries\": \"all\"}",
            "{\"trace_id\": \"demo\", \"entries\": [null]}",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": {}, \"count\": 1}]}",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": true}]}",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": -3}]}",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1e3}]}",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"\", \"count\": 1}]}",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1},"
                + " {\"gpu_config\": \"SM90_H100\", \"count\": 1}]}")) {
      Response response = server.post("/api/runs", body);
      assertThat(response.status()).as(body).isEqualTo(422);
      assertThat(response.errorCode()).as(body).isEqualTo("invalid");
    }
  }

  @Test
  void hugeBodies_are413() {
    String padding = "x".repeat(70 * 1024);
    Response json = server.post("/api/runs", "{\"trace_id\": \"" + padding + "\"}");
    Response heartbeat =
        server.heartbeat(simId, "{\"state\": \"running\", \"error\": \"" + padding + "\"}");
    Response chunk =
        server.put(
            "/api/sims/" + simId + "/chunks/0", new byte[9 * 1024 * 1024], server.simAuth(simId));

    assertThat(json.status()).isEqualTo(413);
    assertThat(json.errorCode()).isEqualTo("payload_too_large");
    assertThat(heartbeat.status()).isEqualTo(413);
    assertThat(chunk.status()).isEqualTo(413);
  }

  @Test
  void badIdsAndPathTraversal_areRefusedWithoutA500() {
    for (String path :
        List.of(
            "/api/runs/..",
            "/api/runs/%2e%2e",
            "/api/runs/..%2F..%2Fetc%2Fpasswd",
            "/api/runs/r_x%00",
            "/api/runs/" + "r".repeat(3000),
            "/api/traces/..%2F..%2F..%2Fetc",
            "/api/traces/%2e%2e",
            "/api/traces/a%5Cb",
            "/api/traces/" + "t".repeat(300),
            "/api/traces/%C3%28",
            "/api/sims/..%2Fx/log",
            "/api/sims/%00/kernels",
            "/api/runs/" + runId + "/..%2F..%2F",
            "/api/../api/runs",
            "/api/runs/" + runId + "/events?after=-1",
            "/api/runs/" + runId + "/events?after=abc",
            "/api/runs/" + runId + "/events?after=99999999999999999999999",
            "/api/sims/" + simId + "/log?tail=-1",
            "/api/sims/" + simId + "/log?tail=100000",
            "/nope",
            "/api/nope",
            "/api/runs/" + runId + "/nope")) {
      Response response = server.get(path);
      assertThat(response.status()).as(path).isBetween(400, 499);
      assertThat(response.errorCode()).as(path).isNotBlank();
    }
  }

  @Test
  void wrongMethods_are405WithAllow() {
    Response delete = server.method("DELETE", "/api/runs", new byte[0]);
    Response putRun = server.method("PUT", "/api/runs/" + runId, new byte[0]);
    Response getHeartbeat = server.get("/api/sims/" + simId + "/heartbeat");
    Response postChunk = server.post("/api/sims/" + simId + "/chunks/0", "{}");
    Response patch = server.method("PATCH", "/healthz", new byte[0]);

    for (Response response : List.of(delete, putRun, getHeartbeat, postChunk, patch)) {
      assertThat(response.status()).isEqualTo(405);
      assertThat(response.errorCode()).isEqualTo("method_not_allowed");
    }
    assertThat(delete.headers().firstValue("Allow"))
        .hasValueSatisfying(allow -> assertThat(allow).contains("GET").contains("POST"));
  }

  @Test
  void chunkSeqs_thatAreNotWholeNumbersAre422() {
    for (String seq : List.of("-1", "1.5", "abc", "0x10", "99999999999999999999", "%20")) {
      Response response =
          server.put(
              "/api/sims/" + simId + "/chunks/" + seq, new byte[] {'x'}, server.simAuth(simId));
      assertThat(response.status()).as(seq).isEqualTo(422);
      assertThat(response.errorField()).as(seq).isEqualTo("seq");
    }
  }

  @Test
  void rawGarbageOnTheSocket_neverGetsA500() throws IOException {
    List<String> requests = new ArrayList<>();
    requests.add("GARBAGE\r\n\r\n");
    requests.add("GET /api/runs HTTP/9.9\r\nHost: x\r\n\r\n");
    requests.add("GET /api/runs\r\n\r\n");
    requests.add("GET /api/" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
    requests.add("GET /api/runs HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n");
    requests.add("POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}");
    requests.add(
        "POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}");
    requests.add(
        "POST /api/runs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
    requests.add("GET /api/runs/%zz HTTP/1.1\r\nHost: x\r\n\r\n");
    requests.add("GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n");
    Random random = new Random(7);
    for (int i = 0; i < 10; i++) {
      byte[] bytes = new byte[200];
      random.nextBytes(bytes);
      requests.add(new String(bytes, StandardCharsets.ISO_8859_1) + "\r\n\r\n");
    }
    for (String request : requests) {
      String statusLine = rawStatusLine(request);
      assertThat(statusLine)
          .as(request.substring(0, Math.min(60, request.length())))
          .doesNotContain(" 500");
    }
    assertThat(server.api.responses(500)).isZero();
  }

  @Test
  void noRequestInThisClassGotA500() {
    malformedJson_is400();
    wrongTypes_are422();
    badIdsAndPathTraversal_areRefusedWithoutA500();
    wrongMethods_are405WithAllow();

    assertThat(server.api.responses(500)).isZero();
  }

  /** Sends raw bytes and reads the status line (empty when the server just closed). */
  @Test
  void connectAndOtherRefusedRequests_closeTheConnection() throws IOException {
    for (String request :
        List.of(
            "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
            "GET /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")) {
      try (Socket socket = new Socket("127.0.0.1", server.api.port())) {
        socket.setSoTimeout(5_000);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
        try {
          socket.getInputStream().transferTo(read);
        } catch (java.net.SocketTimeoutException e) {
          throw new AssertionError(
              request.split(" ")[0] + ": the connection stayed open after " + read, e);
        }
        String answer = read.toString(StandardCharsets.ISO_8859_1);
        assertThat(answer).as(request).startsWith("HTTP/1.1 4").doesNotContain(" 500");
      }
    }
  }

  private String rawStatusLine(String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.api.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      int b;
      while ((b = in.read()) >= 0 && b != '\n') {
        line.append((char) b);
      }
      return line.toString();
    } catch (java.net.SocketException e) {
      return "";
    }
  }
}
