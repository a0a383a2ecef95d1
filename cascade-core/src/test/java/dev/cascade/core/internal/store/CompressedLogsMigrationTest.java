package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.KernelResult;
import dev.cascade.core.SimEvent;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import dev.cascade.core.internal.store.Migrations.Migration;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V8 keeps logs, kernel statistics and events compressed at rest: a database of V1 to V5, whose
 * chunks are raw, whose statistics and events are JSON text, reads back as it did, byte for byte,
 * beside rows stored compressed after the migration; and a log's size counts the bytes the sim
 * sent, not those stored.
 */
final class CompressedLogsMigrationTest {

  private static final String OLD_LOG = "GPGPU-Sim uArch: performance model initialization done\n";
  private static final String OLD_EVENT = "{\"lines\":[\"" + "x".repeat(600) + "\"]}";

  @TempDir java.nio.file.Path dataDir;

  @Test
  void v8_readsRawChunksAndTextStatisticsStoredBefore_besideCompressedOnesStoredAfter()
      throws Exception {
    java.nio.file.Path file = dataDir.resolve("cascade.db");
    List<Migration> before =
        List.of(
            new Migration(1, resource("V1__initial.sql")),
            new Migration(2, resource("V2__hardware.sql")),
            new Migration(3, resource("V3__sim_tokens.sql")),
            new Migration(4, resource("V4__queue.sql")),
            new Migration(5, resource("V5__provenance.sql")));
    try (Database old = Database.open(file, new Migrations(before))) {
      old.write(
          connection -> {
            try (Statement statement = connection.createStatement()) {
              statement.execute(
                  "INSERT INTO runs (id, trace_id, entries, created_at) VALUES ('r_1', 'demo',"
                      + " '[{\"gpu_config\": \"SM90_H100\", \"count\": 1}]',"
                      + " '2026-11-07T12:00:00.000000000Z')");
              statement.execute(
                  "INSERT INTO sims (id, run_id, gpu_config, replica, state, created_at)"
                      + " VALUES ('s_1', 'r_1', 'SM90_H100', 0, 'running',"
                      + " '2026-11-07T12:00:00.000000000Z')");
              statement.execute(
                  "INSERT INTO chunks (sim_id, seq, bytes, received_at) VALUES ('s_1', 0, CAST('"
                      + OLD_LOG
                      + "' AS BLOB), '2026-11-07T12:00:01.000000000Z')");
              statement.execute(
                  "INSERT INTO sim_kernels (sim_id, position, name, uid, instance, cycles,"
                      + " instructions, ipc, stats) VALUES ('s_1', 0, 'k', 1, 0, 10, 20, 2.0,"
                      + " '{\"gpu_sim_cycle\":10,\"gpu_ipc\":2.5}')");
              statement.execute(
                  "INSERT INTO events (run_id, sim_id, kind, data, created_at) VALUES ('r_1',"
                      + " 's_1', 'log', '"
                      + OLD_EVENT
                      + "', '2026-11-07T12:00:01.000000000Z')");
            }
            return null;
          });
    }

    try (Database database = Database.open(file)) {
      ChunkRepository chunks = new ChunkRepository(database, Clock.systemUTC());
      String newLog = "thread block = 1,0,0\n".repeat(2_000);
      database.write(
          connection ->
              chunks.insert(
                  connection, new Chunk("s_1", 1, newLog.getBytes(StandardCharsets.UTF_8))));

      try (InputStream log = chunks.openLog("s_1")) {
        assertThat(new String(log.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo(OLD_LOG + newLog);
      }
      assertThat(chunks.totalBytes("s_1")).isEqualTo(OLD_LOG.length() + newLog.length());
      ChunkRepository.LogSize size = chunks.size(List.of("s_1"));
      assertThat(size.bytes()).isEqualTo(OLD_LOG.length() + newLog.length());
      assertThat(size.storedBytes())
          .as("the new chunk is stored compressed")
          .isLessThan(OLD_LOG.length() + newLog.length() / 10);

      List<KernelResult> kernels =
          database.read(connection -> new KernelRepository(database).read(connection, "s_1"));
      assertThat(kernels.getFirst().stats())
          .isEqualTo(Map.of("gpu_sim_cycle", 10L, "gpu_ipc", 2.5));

      EventRepository events = new EventRepository(database);
      String newEvent = "{\"lines\":[\"" + "y".repeat(900) + "\"]}";
      database.write(
          connection ->
              events.insert(connection, "r_1", "s_1", SimEvent.Kind.LOG, Instant.now(), newEvent));
      assertThat(events.after("r_1", 0, 10))
          .extracting(SimEvent::data)
          .containsExactly(OLD_EVENT, newEvent);
    }
  }

  private String resource(String name) throws IOException {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("db/migration/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
