package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data dir whose disk fills up mid-run, on a small tmpfs of its own: every write the API is asked
 * for is {@code 503 unavailable} with the reason (never {@code 500 internal}), {@code /healthz}
 * says unhealthy, and all of it recovers by itself once there is space again. Skipped where this
 * test cannot mount a tmpfs (mounting needs root or CAP_SYS_ADMIN).
 */
final class DiskFaultIT {

  private static final String SIZE = "16m";

  @TempDir Path dir;
  private Path dataDir;
  private boolean mounted;
  private ApiServer server;

  @BeforeEach
  void mountASmallDisk() throws Exception {
    dataDir = dir.resolve("data");
    Files.createDirectories(dataDir);
    int exit = run("mount", "-t", "tmpfs", "-o", "size=" + SIZE, "tmpfs", dataDir.toString());
    Assumptions.assumeTrue(
        exit == 0, "cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): mount exited " + exit);
    mounted = true;
    server = ApiServer.start(dataDir);
  }

  @AfterEach
  void unmount() throws Exception {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      if (mounted) {
        run("umount", "-l", dataDir.toString());
      }
    }
  }

  @Test
  void fullDisk_refusesWritesWith503AndAReason_thenRecoversByItself() throws IOException {
    JsonNode run = server.createRun(2);
    String runId = run.get("id").asText();
    String simId = ApiServer.simIds(run).getFirst();
    assertThat(server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}").status())
        .isEqualTo(200);
    assertThat(server.chunk(simId, 0, "before\n").status()).isEqualTo(200);
    Path filler = dataDir.resolve("filler");
    fill(filler);

    Response chunk = server.put("/api/sims/" + simId + "/chunks/1", bigChunk(), auth(simId));
    // A final heartbeat must be written before it is answered; a routine one is only noted in
    // memory (HeartbeatTimes), so it is answered even now and written once the disk has room.
    Response heartbeat =
        server.heartbeat(simId, "{\"state\": \"succeeded\", \"chunks\": 2, \"exit_code\": 0}");
    Response routine = server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 2}");
    Response create =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 64}]}");
    Response cancel = server.post("/api/runs/" + runId + "/cancel", "");
    Response health = server.get("/healthz");

    for (Response refused : List.of(chunk, heartbeat, create, cancel)) {
      assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
      assertThat(refused.errorCode()).isEqualTo("unavailable");
      assertThat(refused.json().get("error").get("message").asText())
          .contains("the disk is full")
          .doesNotContain("SQLITE", "transaction");
    }
    assertThat(routine.status()).as(routine.toString()).isEqualTo(200);
    assertThat(health.status()).isEqualTo(503);
    assertThat(health.json().get("status").asText()).isEqualTo("unhealthy");
    assertThat(health.json().get("reason").asText()).isEqualTo("the disk is full");
    assertThat(server.get("/api/runs/" + runId).status()).as("reads still work").isEqualTo(200);

    Files.delete(filler);

    assertThat(server.get("/healthz").status()).isEqualTo(200);
    assertThat(server.put("/api/sims/" + simId + "/chunks/1", bigChunk(), auth(simId)).status())
        .isEqualTo(200);
    assertThat(server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 2}").status())
        .isEqualTo(200);
    assertThat(server.get("/api/sims/" + simId + "/log").body())
        .startsWith("before\n")
        .hasSize("before\n".length() + bigChunk().length);
    assertThat(server.post("/api/runs/" + runId + "/cancel", "").status()).isEqualTo(200);
  }

  private String[] auth(String simId) {
    return server.simAuth(simId);
  }

  /** Bigger than anything SQLite's log has room for already. */
  private static byte[] bigChunk() {
    byte[] bytes = new byte[2 * 1024 * 1024];
    java.util.Arrays.fill(bytes, (byte) 'x');
    return bytes;
  }

  /** Writes {@code file} until the disk has no space left. */
  private static void fill(Path file) throws IOException {
    byte[] block = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("No space left")) {
        throw e;
      }
    }
  }

  private static int run(String... command) throws Exception {
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return -1; // no such program
    }
    process.getInputStream().transferTo(OutputStream.nullOutputStream());
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return -1;
    }
    return process.exitValue();
  }
}
