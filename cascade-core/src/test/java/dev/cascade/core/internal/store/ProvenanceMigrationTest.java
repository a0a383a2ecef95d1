package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.KernelResult;
import dev.cascade.core.Provenance;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.Migrations.Migration;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The V5 migration remakes the sims table (one row per attempt): a database of V1 to V4 keeps its
 * sims, their chunks, kernels and tokens, and the foreign keys that tie them together.
 */
final class ProvenanceMigrationTest {

  @TempDir Path dataDir;

  @Test
  void v5_keepsEverySimWithItsChunksKernelsAndTokens_andTheForeignKeysStillHold()
      throws IOException {
    Path file = dataDir.resolve("cascade.db");
    List<Migration> before =
        List.of(
            new Migration(1, resource("V1__initial.sql")),
            new Migration(2, resource("V2__hardware.sql")),
            new Migration(3, resource("V3__sim_tokens.sql")),
            new Migration(4, resource("V4__queue.sql")));
    try (Database old = Database.open(file, new Migrations(before))) {
      old.write(
          connection -> {
            try (Statement statement = connection.createStatement()) {
              statement.execute(
                  "INSERT INTO runs (id, trace_id, entries, created_at) VALUES ('r_1', 'demo',"
                      + " '[{\"gpu_config\": \"SM90_H100\", \"count\": 1}]',"
                      + " '2026-11-07T12:00:00.000000000Z')");
              statement.execute(
                  "INSERT INTO sims (id, run_id, gpu_config, replica, state, error, exit_code,"
                      + " created_at, kernels_total) VALUES ('s_1', 'r_1', 'SM90_H100', 0,"
                      + " 'failed', 'boom', 139, '2026-11-07T12:00:00.000000000Z', 3)");
              statement.execute(
                  "INSERT INTO chunks (sim_id, seq, bytes, received_at) VALUES ('s_1', 0,"
                      + " x'6869', '2026-11-07T12:00:01.000000000Z')");
              statement.execute(
                  "INSERT INTO sim_kernels (sim_id, position, name, uid, instance, cycles,"
                      + " instructions, ipc, stats) VALUES ('s_1', 0, 'k', 1, 0, 10, 20, 2.0,"
                      + " '{}')");
              statement.execute(
                  "INSERT INTO sim_tokens (sim_id, token_hash) VALUES ('s_1', 'sha256:ab')");
            }
            return null;
          });
    }

    try (Database database = Database.open(file)) {
      Sim sim = new SimRepository(database, Clock.systemUTC()).find("s_1").orElseThrow();
      assertThat(sim.state()).isEqualTo(SimState.FAILED);
      assertThat(sim.error()).isEqualTo("boom");
      assertThat(sim.exitCode()).isEqualTo(139);
      assertThat(sim.attempt()).isEqualTo(1);
      assertThat(sim.kernels()).isNull();
      assertThat(sim.provenance()).isEqualTo(Provenance.UNKNOWN);
      assertThat(sim.progress().kernelsTotal()).isEqualTo(3);
      assertThat(new ChunkRepository(database, Clock.systemUTC()).contiguousCount("s_1"))
          .isEqualTo(1);
      List<KernelResult> kernels =
          database.read(connection -> new KernelRepository(database).read(connection, "s_1"));
      assertThat(kernels).hasSize(1);
      assertThatThrownBy(
              () ->
                  database.write(
                      connection -> {
                        try (PreparedStatement insert =
                            connection.prepareStatement(
                                "INSERT INTO chunks (sim_id, seq, bytes, received_at) VALUES"
                                    + " ('s_gone', 0, x'00', '2026-11-07T12:00:02.000000000Z')")) {
                          return insert.executeUpdate();
                        }
                      }))
          .hasMessageContaining("FOREIGN KEY");
      SimTokenRepository tokens = new SimTokenRepository(database);
      assertThat(tokens.holds("s_1", "sha256:ab")).isTrue();
      assertThatThrownBy(() -> tokens.put("s_gone", "sha256:cd"))
          .hasMessageContaining("FOREIGN KEY");
    }
  }

  private String resource(String name) throws IOException {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("db/migration/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
