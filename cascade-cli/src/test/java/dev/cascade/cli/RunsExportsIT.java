package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.RunState;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade runs results ID --tidy-csv | --get-stats [-R]}: the server's CSVs as it wrote
 * them.
 */
final class RunsExportsIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @BeforeEach
  void start() throws Exception {
    cascade = new CliTestServer(dataDir);
  }

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void tidyCsv_isTheServersTidyCsv() throws Exception {
    String id = finishedRun();

    Result result = cascade.run("runs", "results", id, "--tidy-csv");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo(cascade.engine.results().simsCsv(id));
    assertThat(result.out().split("\r\n")[0]).startsWith("run_id,trace_id,gpu_config,replica,");
    assertThat(result.out().split("\r\n")).hasSize(1 + 3 * 3); // 3 sims of 3 kernels
  }

  @Test
  void getStats_isTheServersGetStatsCsvWithAndWithoutConfigsAsRows() throws Exception {
    String id = finishedRun();

    Result plain = cascade.run("runs", "results", id, "--get-stats");
    Result rows = cascade.run("runs", "results", id, "--get-stats", "-R");

    assertThat(plain.exit()).as(plain.err()).isZero();
    assertThat(plain.out()).isEqualTo(cascade.engine.results().getStatsCsv(id, false));
    assertThat(plain.out()).contains("\nAPPS,SM90_H100,SM90_H200\n");
    assertThat(rows.exit()).as(rows.err()).isZero();
    assertThat(rows.out()).isEqualTo(cascade.engine.results().getStatsCsv(id, true));
    assertThat(rows.out())
        .contains("\nCFG,demo/replica_0--all_kernels,demo/replica_1--all_kernels\n");
  }

  @Test
  void tidyCsvWithCsv_isAUsageError() {
    Result result =
        cascade.run("runs", "results", "r_01JD3N8X5S2Q7W4K9M6T1V0BZC", "--tidy-csv", "--csv");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("mutually exclusive");
  }

  private String finishedRun() throws Exception {
    Result created = cascade.run("runs", "create", "demo", "SM90_H100:2", "SM90_H200:1", "--json");
    assertThat(created.exit()).as(created.err()).isZero();
    String id = JSON.readTree(created.out()).get("id").asText();
    for (SimLaunch sim : cascade.nextLaunches(3)) {
      cascade.succeed(sim);
    }
    assertThat(cascade.engine.runs().await(id, CliTestServer.WAIT).state())
        .isEqualTo(RunState.SUCCEEDED);
    return id;
  }
}
