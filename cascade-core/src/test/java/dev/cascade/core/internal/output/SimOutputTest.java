package dev.cascade.core.internal.output;

import static dev.cascade.core.internal.output.OutputFixtures.CLOCK;
import static dev.cascade.core.internal.output.OutputFixtures.newRun;
import static dev.cascade.core.internal.output.OutputFixtures.split;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.KernelResult;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.OutputFixtures.AccelSimLog;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.spi.LogEnd;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SimOutputTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;

  private Database database;
  private EventLog events;
  private SimOutput output;
  private SimRepository sims;
  private Run run;
  private String simId;
  private String otherSimId;

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
    events = new EventLog(database);
    output = newOutput();
    sims = new SimRepository(database, CLOCK);
    run = newRun(new RunEntry("SM90_H100", 2));
    new RunRepository(database).insert(run);
    simId = run.sims().get(0).id();
    otherSimId = run.sims().get(1).id();
  }

  @AfterEach
  void close() {
    database.close();
  }

  private SimOutput newOutput() {
    return new SimOutput(database, events, CLOCK, GpuConfigCatalog.builtIn());
  }

  // --- chunks and the parse ----------------------------------------------------------------------

  // --- wall time per kernel
  // -----------------------------------------------------------------------

  @Test
  void accept_timesKernelsByWhenTheAgentReadTheirChunk_notByTheArrival() {
    Instant launched = OutputFixtures.T0.minusSeconds(100);
    sims.recordLaunch(simId, "local", "1", launched);
    byte[] log =
        new AccelSimLog()
            .kernel("k_gemm", 1000, 3000)
            .kernel("k_softmax", 500, 1000)
            .kernel("k_norm", 200, 400)
            .exit()
            .bytes();
    int secondBlock = new String(log, UTF_8).indexOf("Destroy streams for kernel 2");
    int thirdBlock = new String(log, UTF_8).indexOf("Destroy streams for kernel 3");
    List<byte[]> pieces = split(log, secondBlock, thirdBlock);

    // Spooled while the app was away: all three arrive at T0, read 88, 58 and 50 s before it.
    output.accept(simId, 0, pieces.get(0), launched.plusSeconds(12));
    output.accept(simId, 1, pieces.get(1), launched.plusSeconds(42));
    output.accept(simId, 2, pieces.get(2), launched.plusSeconds(50));

    assertThat(output.kernels(simId))
        .extracting(KernelResult::name, KernelResult::finishedAt, KernelResult::wallTime)
        .containsExactly(
            tuple("k_gemm", launched.plusSeconds(12), Duration.ofSeconds(12)),
            tuple("k_softmax", launched.plusSeconds(42), Duration.ofSeconds(30)),
            tuple("k_norm", launched.plusSeconds(50), Duration.ofSeconds(8)));
    assertThat(metric(progress(simId), "wall_time_s")).isEqualTo(8.0);
    assertThat(events())
        .filteredOn(event -> event.kind() == SimEvent.Kind.KERNEL)
        .extracting(event -> JSON.readTree(event.data()).get("wall_time_s").asDouble())
        .containsExactly(12.0, 30.0, 8.0);
  }

  /** A two-kernel log cut where the second kernel's block starts: a chunk per kernel. */
  private static List<byte[]> twoKernelsInTwoChunks() {
    byte[] log =
        new AccelSimLog().kernel("k_gemm", 1000, 3000).kernel("k_softmax", 500, 1000).bytes();
    return split(log, new String(log, UTF_8).indexOf("Destroy streams for kernel 2"));
  }

  @Test
  void accept_chunkAfterAGap_isTimedByItsOwnStamp_andAChunkWithoutOneByItsArrival() {
    Instant launched = OutputFixtures.T0.minusSeconds(100);
    sims.recordLaunch(simId, "local", "1", launched);
    List<byte[]> pieces = twoKernelsInTwoChunks();

    output.accept(simId, 1, pieces.get(1), launched.plusSeconds(70)); // held after the gap
    output.accept(simId, 0, pieces.get(0), null); // an agent that sends no stamp: arrival, T0

    assertThat(output.kernels(simId))
        .extracting(KernelResult::finishedAt, KernelResult::wallTime)
        .containsExactly(
            tuple(OutputFixtures.T0, Duration.ofSeconds(100)),
            // Read before the chunk ahead of it arrived: the agent's clock says 70 s, the app's
            // arrival of kernel 1 says 100 s, and a wall time is never negative: unknown.
            tuple(launched.plusSeconds(70), null));
  }

  @Test
  void accept_afterARestart_countsTheNextKernelFromTheStoredEndOfThePreviousOne() {
    Instant launched = OutputFixtures.T0.minusSeconds(100);
    sims.recordLaunch(simId, "local", "1", launched);
    List<byte[]> pieces = twoKernelsInTwoChunks();
    output.accept(simId, 0, pieces.get(0), launched.plusSeconds(20));

    output = newOutput(); // a restart: the parse is rebuilt from the stored chunks
    output.accept(simId, 1, pieces.get(1), launched.plusSeconds(65));

    assertThat(output.kernels(simId))
        .extracting(KernelResult::wallTime)
        .containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(45));
  }

  @Test
  void accept_parsesChunksInOrder() {
    byte[] log =
        new AccelSimLog()
            .kernel("k_gemm", 1000, 3000)
            .kernel("k_softmax", 500, 1000)
            .exit()
            .bytes();
    List<byte[]> pieces = split(log, 100, 700, 1200, 1500);

    for (int seq = 0; seq < pieces.size(); seq++) {
      assertThat(accept(simId, seq, pieces.get(seq))).isEqualTo(new ChunkReceipt(true, seq + 1));
    }

    List<KernelResult> kernels = output.kernels(simId);
    assertThat(kernels)
        .extracting(
            KernelResult::position, KernelResult::name, KernelResult::uid, KernelResult::instance)
        .containsExactly(tuple(0, "k_gemm", 1L, 0), tuple(1, "k_softmax", 2L, 0));
    assertThat(kernels.get(0).cycles()).isEqualTo(1000);
    assertThat(kernels.get(0).instructions()).isEqualTo(3000);
    assertThat(kernels.get(0).ipc()).isEqualTo(3.0);
    assertThat(kernels.get(1).cycles()).isEqualTo(500);
    assertThat(kernels.get(1).instructions()).isEqualTo(1000);
    assertThat(kernels.get(1).stats())
        .containsEntry("gpu_tot_sim_cycle", 1500L)
        .containsEntry("gpu_tot_sim_insn", 4000L)
        .containsEntry("gpu_occupancy", 16.4256)
        .containsEntry("gpgpu_silicon_slowdown", 124150L);

    SimProgress progress = progress(simId);
    assertThat(progress.kernelsDone()).isEqualTo(2);
    assertThat(progress.kernelsTotal()).isEqualTo(4);
    assertThat(progress.currentKernel()).isEqualTo("k_softmax");
    assertThat(progress.logOutcome()).isEqualTo("complete");
    assertThat(progress.latestMetrics().keySet())
        .containsExactlyInAnyOrder(
            "cycles",
            "instructions",
            "ipc",
            "gpu_tot_sim_cycle",
            "gpu_tot_sim_insn",
            "gpu_tot_ipc",
            "gpu_occupancy",
            "L2_BW",
            "gpgpu_simulation_rate",
            "wall_time_s");
    assertThat(metric(progress, "gpgpu_simulation_rate"))
        .as("Accel-Sim's speed, thread instructions a second: the inst/sec line, not cycle/sec")
        .isEqualTo(209400);
    assertThat(metric(progress, "cycles")).isEqualTo(500);
    assertThat(metric(progress, "ipc")).isEqualTo(2.0);
    assertThat(metric(progress, "gpu_tot_sim_cycle")).isEqualTo(1500);
    assertThat(metric(progress, "L2_BW")).isEqualTo(3.7424);
  }

  @Test
  void accept_parsesOutOfOrderChunksOnceTheGapFills() {
    String text =
        new AccelSimLog().kernel("k_a", 1000, 3000).kernel("k_b", 500, 1000).exit().text();
    int endOfA = text.indexOf("launching memcpy", text.indexOf("kernel_name = k_a"));
    int endOfB = text.indexOf("GPGPU-Sim: *** simulation thread exiting");
    List<byte[]> pieces = split(text.getBytes(UTF_8), endOfA, endOfB);

    assertThat(accept(simId, 0, pieces.get(0))).isEqualTo(new ChunkReceipt(true, 1));
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a");

    assertThat(accept(simId, 2, pieces.get(2))).isEqualTo(new ChunkReceipt(true, 1));
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a");
    assertThat(progress(simId).logOutcome()).as("the exit line is past the gap").isNull();

    assertThat(accept(simId, 1, pieces.get(1))).isEqualTo(new ChunkReceipt(true, 3));
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a", "k_b");
    assertThat(output.kernels(simId).get(1).cycles()).isEqualTo(500);
    assertThat(progress(simId).logOutcome()).isEqualTo("complete");
    assertThat(logText(simId)).isEqualTo(text);
  }

  @Test
  void accept_storesADuplicatedSeqOnceAndParsesItOnce() {
    String text =
        new AccelSimLog().kernel("k_a", 1000, 3000).kernel("k_b", 500, 1000).exit().text();
    int endOfA = text.indexOf("launching memcpy", text.indexOf("kernel_name = k_a"));
    int endOfB = text.indexOf("GPGPU-Sim: *** simulation thread exiting");
    List<byte[]> pieces = split(text.getBytes(UTF_8), endOfA, endOfB);

    assertThat(accept(simId, 0, pieces.get(0))).isEqualTo(new ChunkReceipt(true, 1));
    assertThat(accept(simId, 2, pieces.get(2))).isEqualTo(new ChunkReceipt(true, 1));
    assertThat(accept(simId, 2, pieces.get(2))).isEqualTo(new ChunkReceipt(false, 1));
    assertThat(accept(simId, 1, pieces.get(1))).isEqualTo(new ChunkReceipt(true, 3));
    assertThat(accept(simId, 1, pieces.get(1))).isEqualTo(new ChunkReceipt(false, 3));
    assertThat(accept(simId, 0, pieces.get(0))).isEqualTo(new ChunkReceipt(false, 3));

    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a", "k_b");
    assertThat(progress(simId).kernelsDone()).isEqualTo(2);
    assertThat(logText(simId)).isEqualTo(text);
    List<SimEvent> all = events();
    assertThat(all).filteredOn(event -> event.kind() == SimEvent.Kind.KERNEL).hasSize(2);
    assertThat(logLines(all)).filteredOn(line -> line.startsWith("kernel_name = ")).hasSize(2);
  }

  @Test
  void accept_refusesASeqSentAgainWithOtherBytes_parsedAfterAGapOrAfterTheEnd() {
    byte[] first = "line one\n".getBytes(UTF_8);
    byte[] other = "another line\n".getBytes(UTF_8);
    accept(simId, 0, first);
    accept(simId, 2, first); // held after a gap, not parsed yet

    for (long seq : List.of(0L, 2L)) {
      assertThatThrownBy(() -> accept(simId, seq, other))
          .as("seq %d", seq)
          .isInstanceOfSatisfying(
              CascadeException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
                assertThat(e.field()).isEqualTo("seq");
              })
          .hasMessageContaining(
              "already holds chunk " + seq + " with other bytes (9 held, 13 sent)");
    }
    output.finish(simId);
    assertThatThrownBy(() -> accept(simId, 0, other))
        .hasMessageContaining("already holds chunk 0 with other bytes");
    assertThat(accept(simId, 0, first))
        .as("the same bytes again")
        .isEqualTo(new ChunkReceipt(false, 1));
    assertThat(logText(simId)).as("the first copy is kept").startsWith("line one\n");
  }

  @Test
  void accept_joinsALineSplitAcrossChunks() {
    String text = new AccelSimLog().kernel("k_a", 1234, 5678).exit().text();
    int middle = text.indexOf("gpu_tot_sim_cycle = 1234") + "gpu_tot_sim_cycle = 12".length();
    List<byte[]> pieces = split(text.getBytes(UTF_8), middle);

    accept(simId, 0, pieces.get(0));
    assertThat(output.kernels(simId)).isEmpty();
    accept(simId, 1, pieces.get(1));

    assertThat(output.kernels(simId))
        .singleElement()
        .satisfies(
            kernel -> {
              assertThat(kernel.cycles()).isEqualTo(1234);
              assertThat(kernel.instructions()).isEqualTo(5678);
            });
    assertThat(logLines(events()))
        .contains("gpu_tot_sim_cycle = 1234")
        .doesNotContain("gpu_tot_sim_cycle = 12");
  }

  @Test
  void accept_joinsAUtf8CharacterSplitAcrossChunks() {
    String line = "naïve résumé ✓ done";
    String text = new AccelSimLog().line(line).kernel("k_a", 100, 200).text();
    byte[] bytes = text.getBytes(UTF_8);
    int check = text.substring(0, text.indexOf('✓')).getBytes(UTF_8).length; // 3 bytes long
    List<byte[]> pieces = split(bytes, check + 1, check + 2);

    for (int seq = 0; seq < pieces.size(); seq++) {
      accept(simId, seq, pieces.get(seq));
    }

    assertThat(logLines(events())).contains(line).noneMatch(logged -> logged.contains("\uFFFD"));
    assertThat(output.logTail(simId, 100)).contains(line);
    assertThat(logText(simId)).isEqualTo(text);
  }

  @Test
  void accept_afterARestart_continuesTheParseWithoutRepeatingKernelsOrEvents() {
    String text =
        new AccelSimLog().kernel("k_a", 1000, 3000).kernel("k_b", 500, 1000).exit().text();
    // Cut inside k_b's statistics block, in the middle of a line.
    int cut = text.indexOf("gpu_tot_sim_insn = 4000") + "gpu_tot_sim_insn = 40".length();
    List<byte[]> pieces = split(text.getBytes(UTF_8), cut);
    accept(simId, 0, pieces.get(0));
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a");
    List<SimEvent> before = events();

    database.close();
    database = Database.open(dataDir.resolve("cascade.db"));
    events = new EventLog(database);
    sims = new SimRepository(database, CLOCK);
    output = newOutput();

    assertThat(accept(simId, 0, pieces.get(0))).isEqualTo(new ChunkReceipt(false, 1));
    assertThat(accept(simId, 1, pieces.get(1))).isEqualTo(new ChunkReceipt(true, 2));

    List<KernelResult> kernels = output.kernels(simId);
    assertThat(kernels).extracting(KernelResult::name).containsExactly("k_a", "k_b");
    assertThat(kernels.get(1).cycles()).as("k_b's own cycles need k_a's totals").isEqualTo(500);
    assertThat(kernels.get(1).instructions()).isEqualTo(1000);
    SimProgress progress = progress(simId);
    assertThat(progress.kernelsDone()).isEqualTo(2);
    assertThat(progress.logOutcome()).isEqualTo("complete");

    List<SimEvent> all = events();
    assertThat(all).startsWith(before.toArray(SimEvent[]::new));
    List<SimEvent> after = all.subList(before.size(), all.size());
    assertThat(after)
        .extracting(SimEvent::kind)
        .containsExactly(SimEvent.Kind.LOG, SimEvent.Kind.KERNEL, SimEvent.Kind.SIM);
    assertThat(all)
        .filteredOn(event -> event.kind() == SimEvent.Kind.KERNEL)
        .extracting(event -> json(event).get("name").asText())
        .containsExactly("k_a", "k_b");
    List<String> lines = logLines(all);
    assertThat(lines).filteredOn(line -> line.startsWith("Accel-Sim [build")).hasSize(1);
    assertThat(logLines(after)).first().isEqualTo("gpu_tot_sim_insn = 4000");
  }

  @Test
  void accept_appendsLogKernelAndSimEventsInOrder() {
    String text =
        new AccelSimLog().kernel("k_a", 1000, 3000).kernel("k_b", 990, 1980).exit().text();
    accept(simId, 0, text.getBytes(UTF_8));
    accept(simId, 1, "a trailing line\n".getBytes(UTF_8));
    output.finish(simId);

    List<SimEvent> all = events();
    assertThat(all)
        .extracting(SimEvent::kind)
        .containsExactly(
            SimEvent.Kind.LOG,
            SimEvent.Kind.KERNEL,
            SimEvent.Kind.KERNEL,
            SimEvent.Kind.SIM,
            SimEvent.Kind.LOG);
    assertThat(all).extracting(SimEvent::runId).containsOnly(run.id());
    assertThat(all).extracting(SimEvent::simId).containsOnly(simId);
    assertThat(all).extracting(SimEvent::id).isSorted();

    JsonNode kernel = json(all.get(2));
    assertThat(kernel.get("position").asInt()).isEqualTo(1);
    assertThat(kernel.get("name").asText()).isEqualTo("k_b");
    assertThat(kernel.get("uid").asLong()).isEqualTo(2);
    assertThat(kernel.get("instance").asInt()).isZero();
    assertThat(kernel.get("cycles").asLong()).isEqualTo(990);
    assertThat(kernel.get("instructions").asLong()).isEqualTo(1980);
    assertThat(kernel.get("ipc").asDouble()).isEqualTo(2.0);
    assertThat(kernel.get("simulated_time_us").asDouble())
        .isCloseTo(0.5, within(1e-12)); // 1980 MHz

    JsonNode sim = json(all.get(3));
    assertThat(sim.get("kernels_done").asInt()).as("the hook sees the change").isEqualTo(2);
    assertThat(sim.get("current_kernel").asText()).isEqualTo("k_b");
    assertThat(sim.get("log_outcome").asText()).isEqualTo("complete");

    assertThat(json(all.get(0)).get("lines").get(json(all.get(0)).get("lines").size() - 1).asText())
        .isEqualTo("GPGPU-Sim: *** exit detected ***");
    assertThat(json(all.get(4)).get("lines").get(0).asText()).isEqualTo("a trailing line");
  }

  @Test
  void accept_capsALogEventAtTheNewest50Lines() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      text.append("line ").append(i).append('\n');
    }
    accept(simId, 0, text.toString().getBytes(UTF_8));
    accept(simId, 1, ("x".repeat(20_000) + "\n").getBytes(UTF_8));

    List<SimEvent> all = events();
    JsonNode first = json(all.get(0));
    assertThat(first.get("lines")).hasSize(50);
    assertThat(first.get("lines").get(0).asText()).isEqualTo("line 150");
    assertThat(first.get("lines").get(49).asText()).isEqualTo("line 199");
    assertThat(first.get("skipped").asInt()).isEqualTo(150);
    assertThat(json(all.get(1)).get("lines").get(0).asText()).hasSize(LogLines.MAX_BYTES);
    assertThat(output.logTail(simId, 1)).singleElement().asString().hasSize(20_000);
  }

  @Test
  void finish_parsesALastLineWithoutANewlineAndStoresTheOutcome() {
    String text = new AccelSimLog().kernel("k_a", 1000, 3000).kernel("k_b", 500, 1000).text();
    accept(simId, 0, text.substring(0, text.length() - 1).getBytes(UTF_8)); // no final newline
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a");
    assertThat(progress(simId).logOutcome()).isNull();

    LogEnd outcome = output.finish(simId);

    assertThat(outcome.state()).isEqualTo(LogEnd.State.INCOMPLETE);
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a", "k_b");
    assertThat(progress(simId).logOutcome()).isEqualTo("incomplete");
    assertThat(progress(simId).kernelsDone()).isEqualTo(2);
    assertThat(logLines(events())).last().isEqualTo("gpgpu_silicon_slowdown = 124150x");

    int eventCount = events().size();
    assertThat(output.finish(simId).state()).isEqualTo(LogEnd.State.INCOMPLETE);
    assertThat(events()).hasSize(eventCount);
  }

  @Test
  void release_endsTheParseAndRefusesLaterChunksSoTheLogAndItsKernelsAgree() throws IOException {
    byte[] first = new AccelSimLog().kernel("k_a", 1000, 3000).exit().bytes();
    accept(simId, 0, first);
    moveTo(simId, SimState.SUCCEEDED);
    output.release(simId);
    int eventCount = events().size();

    assertThat(accept(simId, 0, first)).isEqualTo(new ChunkReceipt(false, 1));
    assertThatThrownBy(() -> accept(simId, 1, new AccelSimLog().kernel("k_late", 1, 1).bytes()))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
              assertThat(e.field()).isEqualTo("seq");
              assertThat(e.getMessage()).contains(simId, "chunk 1", "log is closed");
            });

    assertThat(new String(output.log(simId).readAllBytes(), UTF_8)).doesNotContain("k_late");
    assertThat(output.kernels(simId)).extracting(KernelResult::name).containsExactly("k_a");
    assertThat(progress(simId).logOutcome()).isEqualTo("complete");
    assertThat(events()).hasSize(eventCount);
    assertThat(output.finish(simId).state()).isEqualTo(LogEnd.State.COMPLETE);
  }

  @Test
  void failureInLog_givesTheFailureLineBeforeAndAfterARelease() {
    String deadlock = "ERROR ** deadlock detected: last writeback core 0 @ gpu_sim_cycle 20";
    accept(simId, 0, new AccelSimLog().kernel("k_a", 10, 20).line(deadlock).bytes());
    accept(otherSimId, 0, new AccelSimLog().kernel("k_a", 10, 20).exit().bytes());

    assertThat(output.failureInLog(simId)).contains(deadlock);
    assertThat(output.finish(simId).failed()).isTrue();
    assertThat(progress(simId).logOutcome()).isEqualTo("failed");
    moveTo(simId, SimState.FAILED);
    output.release(simId);
    assertThat(output.failureInLog(simId)).contains(deadlock);
    assertThat(newOutput().failureInLog(simId)).as("after a restart").contains(deadlock);

    output.finish(otherSimId);
    assertThat(output.failureInLog(otherSimId)).isEmpty();
    assertThatThrownBy(() -> output.failureInLog("s_nope")).isInstanceOf(CascadeException.class);
  }

  @Test
  void accept_feedsEachSimsChunksInOrderWhenTheyArriveConcurrently() throws Exception {
    AccelSimLog log = new AccelSimLog();
    for (int i = 0; i < 6; i++) {
      log.kernel("k_" + (i % 2), 100 + i, 1000 + i);
    }
    byte[] bytes = log.exit().bytes();
    int[] offsets = IntStream.iterate(97, at -> at < bytes.length, at -> at + 97).toArray();
    List<byte[]> pieces = split(bytes, offsets);
    record Send(String simId, int seq) {}
    List<Send> sends = new ArrayList<>();
    for (String sim : List.of(simId, otherSimId)) {
      for (int seq = 0; seq < pieces.size(); seq++) {
        sends.add(new Send(sim, seq));
        if (seq % 5 == 0) {
          sends.add(new Send(sim, seq)); // and some twice
        }
      }
    }
    Collections.shuffle(sends, new Random(42));

    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<ChunkReceipt>> receipts = new ArrayList<>();
      for (Send send : sends) {
        receipts.add(pool.submit(() -> accept(send.simId(), send.seq(), pieces.get(send.seq()))));
      }
      for (Future<ChunkReceipt> receipt : receipts) {
        receipt.get();
      }
    }

    for (String sim : List.of(simId, otherSimId)) {
      List<KernelResult> kernels = output.kernels(sim);
      assertThat(kernels)
          .extracting(KernelResult::cycles)
          .containsExactly(100L, 101L, 102L, 103L, 104L, 105L);
      assertThat(kernels).extracting(KernelResult::instance).containsExactly(0, 0, 1, 1, 2, 2);
      assertThat(progress(sim).logOutcome()).isEqualTo("complete");
      assertThat(logBytes(sim)).isEqualTo(bytes);
    }
    assertThat(events()).filteredOn(event -> event.kind() == SimEvent.Kind.KERNEL).hasSize(12);
  }

  @Test
  void accept_refusesAnUnknownSimAndAnotherRunsSim() {
    assertThatThrownBy(() -> output.accept("s_nope", run.id(), 0, new byte[1]))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    assertThatThrownBy(() -> output.accept(simId, "r_other", 0, new byte[1]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(run.id());
    assertThatThrownBy(() -> output.accept(simId, run.id(), -1, new byte[1]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> output.kernels("s_nope")).isInstanceOf(CascadeException.class);
    assertThatThrownBy(() -> output.logTail("s_nope", 5)).isInstanceOf(CascadeException.class);
    assertThatThrownBy(() -> output.log("s_nope")).isInstanceOf(CascadeException.class);
  }

  // --- what is held ------------------------------------------------------------------------------

  @Test
  void missingAndHoldsAll_followTheGaps() {
    for (int seq : new int[] {0, 2, 4}) {
      accept(simId, seq, ("chunk " + seq + "\n").getBytes(UTF_8));
    }

    assertThat(output.missing(simId, 5)).containsExactly(1L, 3L);
    assertThat(output.missing(simId, 7)).containsExactly(1L, 3L, 5L, 6L);
    assertThat(output.holdsAll(simId, 5)).isFalse();
    assertThat(output.holdsAll(simId, 1)).isTrue();
    assertThat(output.holdsAll(otherSimId, 0)).isTrue();

    accept(simId, 1, "chunk 1\n".getBytes(UTF_8));
    accept(simId, 3, "chunk 3\n".getBytes(UTF_8));

    assertThat(output.missing(simId, 5)).isEmpty();
    assertThat(output.holdsAll(simId, 5)).isTrue();
    assertThat(output.holdsAll(simId, 6)).isFalse();
  }

  // --- the log -----------------------------------------------------------------------------------

  @Test
  void logTail_returnsTheLastLinesReadFromTheNewestChunks() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      text.append("line ").append(i).append('\n');
    }
    text.append("tail without newline");
    byte[] bytes = text.toString().getBytes(UTF_8);
    int[] offsets = IntStream.iterate(37, at -> at < bytes.length, at -> at + 37).toArray();
    List<byte[]> pieces = split(bytes, offsets);
    assertThat(output.logTail(simId, 5)).isEmpty();

    for (int seq = 0; seq < pieces.size(); seq++) {
      accept(simId, seq, pieces.get(seq));
    }

    assertThat(output.logTail(simId, 3))
        .containsExactly("line 98", "line 99", "tail without newline");
    assertThat(output.logTail(simId, 0)).isEmpty();
    assertThat(output.logTail(simId, 1000)).hasSize(101).startsWith("line 0", "line 1");

    accept(otherSimId, 0, "only\r\nlines\n".getBytes(UTF_8));
    assertThat(output.logTail(otherSimId, 5)).containsExactly("only", "lines");
  }

  @Test
  void log_isTheConcatenationOfTheChunksWhateverOrderTheyCameIn() throws IOException {
    AccelSimLog log = new AccelSimLog();
    for (int i = 0; i < 4; i++) {
      log.kernel("k", 1000 + i, 2000 + i).line("ünïcödé ✓ " + i);
    }
    byte[] bytes = log.exit().bytes();
    Random random = new Random(7);
    List<Integer> cuts = new ArrayList<>();
    for (int at = random.nextInt(1, 50); at < bytes.length; at += random.nextInt(1, 120)) {
      cuts.add(at);
    }
    List<byte[]> pieces = split(bytes, cuts.stream().mapToInt(Integer::intValue).toArray());
    List<Integer> order = new ArrayList<>(IntStream.range(0, pieces.size()).boxed().toList());
    Collections.shuffle(order, random);

    for (int seq : order) {
      accept(simId, seq, pieces.get(seq));
    }

    try (InputStream in = output.log(simId)) {
      assertThat(in.readAllBytes()).isEqualTo(bytes);
    }
    assertThat(output.kernels(simId))
        .extracting(KernelResult::cycles)
        .containsExactly(1000L, 1001L, 1002L, 1003L);
    assertThat(progress(simId).logOutcome()).isEqualTo("complete");
  }

  // ---------------------------------------------------------------------------------------------

  private ChunkReceipt accept(String sim, long seq, byte[] bytes) {
    return output.accept(sim, run.id(), seq, bytes);
  }

  private SimProgress progress(String sim) {
    return sims.find(sim).orElseThrow().progress();
  }

  private static double metric(SimProgress progress, String key) {
    return progress.latestMetrics().get(key).doubleValue();
  }

  private void moveTo(String sim, SimState state) {
    sims.transition(sim, SimState.LAUNCHING);
    sims.transition(sim, SimState.RUNNING);
    sims.transition(sim, state);
  }

  private List<SimEvent> events() {
    List<SimEvent> all = new ArrayList<>();
    try (var stream = events.stream(run.id(), 0)) {
      for (Optional<SimEvent> next = stream.next(Duration.ZERO);
          next.isPresent();
          next = stream.next(Duration.ZERO)) {
        all.add(next.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return all;
  }

  /** Every line the log events carried, in order. */
  private static List<String> logLines(List<SimEvent> events) {
    List<String> lines = new ArrayList<>();
    for (SimEvent event : events) {
      if (event.kind() == SimEvent.Kind.LOG) {
        json(event).get("lines").forEach(line -> lines.add(line.asText()));
      }
    }
    return lines;
  }

  private static JsonNode json(SimEvent event) {
    try {
      return JSON.readTree(event.data());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private byte[] logBytes(String sim) {
    try (InputStream in = output.log(sim)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String logText(String sim) {
    return new String(logBytes(sim), UTF_8);
  }
}
