package dev.cascade.core.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a real server ({@link AckServerMain}, its own JVM) while many sims send chunks,
 * heartbeats and final heartbeats at once, and checks after a restart on the same data dir that
 * everything it answered 2xx is there: every acknowledged chunk with its exact bytes, every sim
 * whose first heartbeat was acknowledged past {@code launching}, and every acknowledged final
 * heartbeat's end state. A server that answered before its commit was on disk (an asynchronous
 * write, an answer before the write, a group commit that acknowledged early) fails it.
 */
final class AckedWritesCrashIT {

  private static final int SIMS = 48;
  private static final int CHUNK_BYTES = 4096;

  /** Every fourth sim ends (a final heartbeat) after this many chunks; the rest keep sending. */
  private static final int CHUNKS_BEFORE_END = 6;

  /** The kill comes once this many chunks are acknowledged, so it lands mid-flow. */
  private static final int CHUNKS_BEFORE_KILL = 400;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;
  private Path dataDir;
  private int port;
  private ServerProcess server;
  private volatile String runId;

  /** (sim, seq) to the bytes answered 2xx. */
  private final Map<String, Map<Long, byte[]>> ackedChunks = new ConcurrentHashMap<>();

  /** Sims whose running heartbeat was answered: the move to running was acknowledged. */
  private final Map<String, Boolean> ackedRunning = new ConcurrentHashMap<>();

  /** Sims whose final heartbeat was answered, with the state the server then reported. */
  private final Map<String, String> ackedEnd = new ConcurrentHashMap<>();

  /** An acknowledged end whose state the kill kept the test from asking: either final state. */
  private static final String FINISHED = "(succeeded or failed)";

  private final List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();

  private final AtomicLong chunksAcked = new AtomicLong();
  private final AtomicBoolean killed = new AtomicBoolean();

  @BeforeEach
  void start() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    dataDir = dir.resolve("data");
    server = ServerProcess.start(AckServerMain.class, dataDir, Integer.toString(port));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.kill();
    }
  }

  @Test
  void everythingAnswered2xx_survivesSigkill() throws Exception {
    List<String> simIds = createRun();
    Map<String, String> tokens = awaitTokens(simIds);

    List<Thread> senders = new ArrayList<>();
    for (int i = 0; i < simIds.size(); i++) {
      String simId = simIds.get(i);
      boolean ends = i % 4 == 0;
      senders.add(Thread.ofVirtual().start(() -> play(simId, tokens.get(simId), ends)));
    }
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> chunksAcked.get() >= CHUNKS_BEFORE_KILL);
    server.kill(); // SIGKILL mid-flow: requests are in flight, commits are being made
    killed.set(true);
    for (Thread sender : senders) {
      sender.join(Duration.ofSeconds(30));
    }
    System.out.println(
        "acked writes crash: killed pid "
            + server.pid()
            + " with "
            + chunksAcked.get()
            + " chunks, "
            + ackedRunning.size()
            + " running moves and "
            + ackedEnd.size()
            + " final heartbeats acknowledged");

    server = ServerProcess.start(AckServerMain.class, dataDir, Integer.toString(port));

    assertThat(unexpected).as("answers other than 200 or 5xx").isEmpty();
    assertThat(ackedEnd).as("final heartbeats acknowledged before the kill").isNotEmpty();
    try (Connection db =
        DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("cascade.db"))) {
      List<String> lost = new ArrayList<>();
      ackedChunks.forEach(
          (simId, chunks) ->
              chunks.forEach(
                  (seq, bytes) -> {
                    byte[] stored = storedChunk(db, simId, seq);
                    if (stored == null || !java.util.Arrays.equals(stored, bytes)) {
                      lost.add(simId + "#" + seq + (stored == null ? " missing" : " differs"));
                    }
                  }));
      assertThat(lost).as("acknowledged chunks after kill -9 and restart").isEmpty();
      for (String simId : ackedRunning.keySet()) {
        assertThat(stateOf(db, simId))
            .as("sim %s's acknowledged move to running", simId)
            .isNotIn("pending", "launching");
      }
      for (Map.Entry<String, String> end : ackedEnd.entrySet()) {
        String state = stateOf(db, end.getKey());
        if (end.getValue().equals(FINISHED)) {
          assertThat(state)
              .as("sim %s's acknowledged end", end.getKey())
              .isIn("succeeded", "failed");
        } else {
          assertThat(state).as("sim %s's acknowledged end", end.getKey()).isEqualTo(end.getValue());
        }
      }
    }
  }

  /**
   * One sim: its first heartbeat, then chunks in order with a heartbeat every few, until killed.
   */
  private void play(String simId, String token, boolean ends) {
    long seq = 0;
    try {
      if (heartbeat(simId, token, "running", 0) == 200) {
        ackedRunning.put(simId, true);
      }
      while (!killed.get()) {
        byte[] bytes = chunkBytes(simId, seq);
        int status =
            send(
                HttpRequest.newBuilder(url("/api/sims/" + simId + "/chunks/" + seq))
                    .header("Authorization", "Bearer " + token)
                    .PUT(BodyPublishers.ofByteArray(bytes)));
        if (status >= 500) {
          continue; // not acknowledged: sent again, as the agent does
        }
        if (status != 200) {
          unexpected.add(simId + "#" + seq + " answered " + status);
          return;
        }
        ackedChunks.computeIfAbsent(simId, key -> new ConcurrentHashMap<>()).put(seq, bytes);
        chunksAcked.incrementAndGet();
        seq++;
        if (ends && seq == CHUNKS_BEFORE_END) {
          if (heartbeat(simId, token, "succeeded", seq) == 200) {
            ackedEnd.put(simId, FINISHED); // the state itself, once asked
            ackedEnd.put(simId, stateNow(simId));
          }
          return;
        }
        if (seq % 3 == 0) {
          heartbeat(simId, token, "running", seq);
        }
      }
    } catch (IOException e) {
      // the server is gone: what was answered before is what counts
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private int heartbeat(String simId, String token, String state, long chunks)
      throws IOException, InterruptedException {
    String body = "{\"state\": \"" + state + "\", \"chunks\": " + chunks + ", \"exit_code\": 0}";
    return send(
        HttpRequest.newBuilder(url("/api/sims/" + simId + "/heartbeat"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(BodyPublishers.ofString(body)));
  }

  /**
   * The state the server holds once it answered a final heartbeat (a log with no failure in it:
   * succeeded).
   */
  private String stateNow(String simId) throws IOException, InterruptedException {
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(url("/api/runs/" + runId)).build(), BodyHandlers.ofString());
    for (JsonNode sim : JSON.readTree(answer.body()).get("sims")) {
      if (sim.get("id").asText().equals(simId)) {
        return sim.get("state").asText();
      }
    }
    throw new IllegalStateException("sim " + simId + " is not in run " + runId);
  }

  private int send(HttpRequest.Builder request) throws IOException, InterruptedException {
    if (killed.get()) {
      throw new IOException("killed");
    }
    return http.send(request.timeout(Duration.ofSeconds(30)).build(), BodyHandlers.discarding())
        .statusCode();
  }

  /**
   * 4 KiB of log lines naming the sim and seq, so a chunk stored for another sim or seq differs.
   */
  private static byte[] chunkBytes(String simId, long seq) {
    StringBuilder text = new StringBuilder(CHUNK_BYTES);
    for (int line = 0; text.length() < CHUNK_BYTES - 80; line++) {
      text.append("GPGPU-Sim: ").append(simId).append(" chunk ").append(seq);
      text.append(" line ").append(line).append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private List<String> createRun() throws Exception {
    String body =
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": "
            + SIMS
            + "}]}";
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(url("/api/runs"))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString(body))
                .build(),
            BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    runId = JSON.readTree(created.body()).get("id").asText();
    HttpResponse<String> run =
        http.send(
            HttpRequest.newBuilder(url("/api/runs/" + runId)).build(), BodyHandlers.ofString());
    List<String> ids = new ArrayList<>();
    for (JsonNode sim : JSON.readTree(run.body()).get("sims")) {
      ids.add(sim.get("id").asText());
    }
    assertThat(ids).hasSize(SIMS);
    return ids;
  }

  private Map<String, String> awaitTokens(List<String> simIds) {
    Path tokens = AckServerMain.tokensDir(dataDir);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> simIds.stream().allMatch(id -> Files.exists(tokens.resolve(id))));
    Map<String, String> byId = new ConcurrentHashMap<>();
    for (String id : simIds) {
      try {
        byId.put(id, Files.readString(tokens.resolve(id)).strip());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return byId;
  }

  private static byte[] storedChunk(Connection db, String simId, long seq) {
    try (PreparedStatement select =
        db.prepareStatement("SELECT bytes, codec, size FROM chunks WHERE sim_id = ? AND seq = ?")) {
      select.setString(1, simId);
      select.setLong(2, seq);
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          return null;
        }
        // Chunks are kept zstd-compressed at rest: the bytes sent are the frame's content.
        return "zstd".equals(row.getString(2))
            ? com.github.luben.zstd.Zstd.decompress(row.getBytes(1), row.getInt(3))
            : row.getBytes(1);
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String stateOf(Connection db, String simId) throws java.sql.SQLException {
    try (PreparedStatement select = db.prepareStatement("SELECT state FROM sims WHERE id = ?")) {
      select.setString(1, simId);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? row.getString(1) : "(no such sim)";
      }
    }
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
