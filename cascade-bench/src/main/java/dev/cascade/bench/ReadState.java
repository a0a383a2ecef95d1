package dev.cascade.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.StatsListener;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SqlTimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read benchmark's state, written straight through the store (a launch and a parse of 58,368
 * kernels would take minutes): one run of {@code configs x 64} sims whose first configs' sims
 * succeeded with {@code kernels} parsed kernels each, and whose last config's sims are still
 * running, part way through.
 */
final class ReadState {

  /** Replicas per config: a run entry's maximum. */
  static final int REPLICAS = RunEntry.MAX_COUNT;

  private static final ObjectMapper JSON = new ObjectMapper();

  private ReadState() {}

  /** The run, as stored; its sims are then moved on and given kernels in {@code database}. */
  static Run write(
      Database database, String traceId, List<GpuConfig> configs, List<KernelStats> kernels) {
    Clock clock = Clock.systemUTC();
    Ids ids = new Ids(clock);
    Instant created = clock.instant().minus(Duration.ofHours(1));
    String runId = ids.newRunId();
    List<RunEntry> entries = new ArrayList<>();
    List<Sim> sims = new ArrayList<>();
    for (GpuConfig config : configs) {
      entries.add(new RunEntry(config.name(), REPLICAS));
      for (int replica = 0; replica < REPLICAS; replica++) {
        sims.add(
            Sim.pending(ids.newSimId(), runId, config.name(), replica, kernels.size(), created));
      }
    }
    Run run = new Run(runId, traceId, entries, created, sims, "bench", 0);
    new RunRepository(database).insert(run);
    String lastConfig = configs.getLast().name();
    Map<String, Long> random = new HashMap<>();
    Map<KernelStats, String> statsJson = new IdentityHashMap<>();
    for (KernelStats kernel : kernels) {
      statsJson.computeIfAbsent(kernel, ReadState::statsJson);
    }
    database.write(
        connection -> {
          try (PreparedStatement finished =
                  connection.prepareStatement(
                      "UPDATE sims SET state = 'succeeded', launcher_name = 'bench',"
                          + " launcher_ref = ?, exit_code = 0, launched_at = ?, finished_at = ?,"
                          + " last_heartbeat_at = ?, kernels_done = ?, log_outcome = 'complete',"
                          + " latest_metrics = ?, current_kernel = ? WHERE id = ?");
              // Rows as KernelRepository stores them, in batches: 58,368 single inserts, each
              // writing its statistics as JSON again, take minutes on a loaded machine.
              PreparedStatement kernelRow =
                  connection.prepareStatement(
                      "INSERT INTO sim_kernels (sim_id, position, name, uid, instance, cycles,"
                          + " instructions, ipc, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
              PreparedStatement running =
                  connection.prepareStatement(
                      "UPDATE sims SET state = 'running', launcher_name = 'bench',"
                          + " launcher_ref = ?, launched_at = ?, last_heartbeat_at = ?,"
                          + " kernels_done = ?, latest_metrics = ?, current_kernel = ?"
                          + " WHERE id = ?")) {
            Instant launched = created.plus(Duration.ofMinutes(1));
            for (Sim sim : sims) {
              KernelStats last = kernels.getLast();
              String metrics =
                  "{\"cycles\":"
                      + last.cycles()
                      + ",\"instructions\":"
                      + last.instructions()
                      + ",\"ipc\":"
                      + last.ipc()
                      + "}";
              if (sim.gpuConfig().equals(lastConfig)) {
                int done = kernels.size() / 2;
                bind(
                    running,
                    "bench:" + sim.id(),
                    SqlTimes.text(launched),
                    SqlTimes.text(clock.instant()),
                    done,
                    metrics,
                    kernels.get(done).name(),
                    sim.id());
                running.executeUpdate();
                for (int position = 0; position < done; position++) {
                  KernelStats kernel = kernels.get(position);
                  addKernel(kernelRow, sim.id(), position, kernel, 0, statsJson.get(kernel));
                }
                kernelRow.executeBatch();
                continue;
              }
              Instant finishedAt = launched.plus(Duration.ofSeconds(600 + sim.replica()));
              bind(
                  finished,
                  "bench:" + sim.id(),
                  SqlTimes.text(launched),
                  SqlTimes.text(finishedAt),
                  SqlTimes.text(finishedAt),
                  kernels.size(),
                  metrics,
                  last.name(),
                  sim.id());
              finished.executeUpdate();
              for (int position = 0; position < kernels.size(); position++) {
                KernelStats kernel = kernels.get(position);
                // Replicas differ a little, as sims with different seeds do.
                long jitter = random.merge(sim.gpuConfig(), 1L, Long::sum) % 7;
                addKernel(kernelRow, sim.id(), position, kernel, jitter, statsJson.get(kernel));
              }
              kernelRow.executeBatch();
            }
          }
          return null;
        });
    return run;
  }

  private static void addKernel(
      PreparedStatement insert,
      String simId,
      int position,
      KernelStats kernel,
      long extraCycles,
      String stats)
      throws java.sql.SQLException {
    long cycles = kernel.cycles() + extraCycles;
    bind(
        insert,
        simId,
        position,
        kernel.name(),
        kernel.uid(),
        kernel.instance(),
        cycles,
        kernel.instructions(),
        cycles == 0 ? 0.0 : (double) kernel.instructions() / cycles,
        stats);
    insert.addBatch();
  }

  /** The statistics as the {@code stats} column holds them: one JSON object, in log order. */
  private static String statsJson(KernelStats kernel) {
    try {
      return JSON.writeValueAsString(kernel.stats());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the statistics of " + kernel.name(), e);
    }
  }

  private static void bind(PreparedStatement statement, Object... values)
      throws java.sql.SQLException {
    for (int i = 0; i < values.length; i++) {
      statement.setObject(i + 1, values[i]);
    }
  }

  /**
   * {@code count} kernels made from the real Accel-Sim log's statistics blocks, taken in turn: each
   * repeat of a block is the next instance of its kernel, as in a long trace.
   */
  static List<KernelStats> kernels(Path log, int count) throws IOException {
    if (!Files.isRegularFile(log)) {
      throw new IllegalStateException(
          "the read benchmark builds its kernels from " + log + ", which is missing");
    }
    List<KernelStats> blocks = new ArrayList<>();
    KernelStatsParser.parse(
        log,
        new StatsListener() {
          @Override
          public void onKernelFinished(KernelStats stats) {
            blocks.add(stats);
          }
        });
    if (blocks.isEmpty()) {
      throw new IllegalStateException(log + " holds no statistics block");
    }
    List<KernelStats> kernels = new ArrayList<>(count);
    Map<String, Integer> instances = new HashMap<>();
    for (int i = 0; i < count; i++) {
      KernelStats block = blocks.get(i % blocks.size());
      int instance = instances.merge(block.name(), 1, Integer::sum) - 1;
      kernels.add(
          new KernelStats(
              block.name(),
              i + 1L,
              instance,
              block.cycles(),
              block.instructions(),
              block.ipc(),
              block.stats()));
    }
    return kernels;
  }
}
