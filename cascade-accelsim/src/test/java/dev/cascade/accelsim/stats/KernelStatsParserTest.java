package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

final class KernelStatsParserTest {

  /** A small log in the shape of a real one, with a multi-byte UTF-8 character in a name. */
  static final String SMALL_LOG =
      """
      Accel-Sim [build accelsim-commit-abc]

              *** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-123] ***

      -gpgpu_deadlock_detect                    1 # Stop the simulation at deadlock
      GPGPU-Sim uArch: performance model initialization complete.
      launching memcpy command : MemcpyHtoD,0x00007f73bee00000,4000
      launching kernel name: noyau_\u00e9 uid: 1 cuda_stream_id: 0
      thread block = 0,0,0
      kernel_name = noyau_\u00e9\s
      kernel_launch_uid = 1\s
      gpu_sim_cycle = 100
      gpu_sim_insn = 250
      gpu_ipc =       2.5000
      gpu_tot_sim_cycle = 100
      gpu_tot_sim_insn = 250
      gpu_occupancy = 12.3456%\s
      L2_BW  =       3.7424 GB/Sec
      \tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 7
      L2_cache_bank[0]: Access = 12, Miss = 10, Miss_rate = 0.833, Pending_hits = -nan, Reservation_fails = 0
      Row_Buffer_Locality = 0.5
      Row_Buffer_Locality = 0.75
      average row locality = 750/32 = 23.437500
      n_cmd=40371 n_nop=40345 n_act=2
      gpgpu_simulation_time = 0 days, 0 hrs, 0 min, 1 sec (1 sec)
      gpgpu_simulation_rate = 250 (inst/sec)
      gpgpu_simulation_rate = 100 (cycle/sec)
      gpgpu_silicon_slowdown = 124150x
      launching kernel name: second uid: 2 cuda_stream_id: 0
      kernel_name = second\s
      kernel_launch_uid = 2\s
      gpu_tot_sim_cycle = 160
      gpu_tot_sim_insn = 400
      gpgpu_silicon_slowdown = 1x
      kernel_name = noyau_\u00e9\s
      kernel_launch_uid = 3\s
      gpu_tot_sim_cycle = 200
      gpu_tot_sim_insn = 500
      gpgpu_silicon_slowdown = 1x
      GPGPU-Sim: *** simulation thread exiting ***
      GPGPU-Sim: *** exit detected ***
      """;

  @Test
  void parse_reportsEveryEventInLogOrder() {
    List<String> events = Recorder.events(SMALL_LOG.getBytes(StandardCharsets.UTF_8));

    assertThat(events)
        .extracting(event -> event.substring(0, event.indexOf(' ')))
        .containsExactly(
            "build", "build", "memcpy", "launch", "kernel", "launch", "kernel", "kernel", "end");
    assertThat(events.get(0))
        .isEqualTo(
            "build BuildString[component=ACCEL_SIM, build=accelsim-commit-abc,"
                + " line=Accel-Sim [build accelsim-commit-abc], version=null]");
    assertThat(events.get(2))
        .isEqualTo(
            "memcpy MemcpyCommand[kind=MemcpyHtoD, address="
                + 0x00007f73bee00000L
                + ", bytes=4000]");
    assertThat(events.get(3)).isEqualTo("launch noyau_\u00e9 1");
    assertThat(events.get(8)).isEqualTo("end " + LogOutcome.COMPLETE);
  }

  @Test
  void parse_computesOwnCyclesFromRunningTotalsAndCountsInstancesPerName() {
    LogSummary log = LogSummary.parse(SMALL_LOG);

    assertThat(log.kernels())
        .extracting(
            KernelStats::name,
            KernelStats::uid,
            KernelStats::instance,
            KernelStats::cycles,
            KernelStats::instructions,
            KernelStats::ipc)
        .containsExactly(
            Tuple.tuple("noyau_\u00e9", 1L, 0, 100L, 250L, 2.5),
            Tuple.tuple("second", 2L, 0, 60L, 150L, 2.5),
            Tuple.tuple("noyau_\u00e9", 3L, 1, 40L, 100L, 2.5));
    assertThat(log.build(BuildString.Component.ACCEL_SIM)).contains("accelsim-commit-abc");
    assertThat(log.build(BuildString.Component.GPGPU_SIM)).contains("gpgpu-sim_git-commit-123");
    assertThat(log.complete()).isTrue();
  }

  @Test
  void parse_keepsEveryNumericKeyValueWithUniqueKeys() {
    KernelStats first = LogSummary.parse(SMALL_LOG).kernels().get(0);

    assertThat(first.stats())
        .containsExactly(
            entry("kernel_launch_uid", 1L),
            entry("gpu_sim_cycle", 100L),
            entry("gpu_sim_insn", 250L),
            entry("gpu_ipc", 2.5),
            entry("gpu_tot_sim_cycle", 100L),
            entry("gpu_tot_sim_insn", 250L),
            entry("gpu_occupancy", 12.3456),
            entry("L2_BW", 3.7424),
            entry("Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 7L),
            entry("L2_cache_bank[0].Access", 12L),
            entry("L2_cache_bank[0].Miss", 10L),
            entry("L2_cache_bank[0].Miss_rate", 0.833),
            entry("L2_cache_bank[0].Reservation_fails", 0L),
            entry("Row_Buffer_Locality", 0.5),
            entry("Row_Buffer_Locality#2", 0.75),
            entry("gpgpu_simulation_rate", 250L),
            entry("gpgpu_simulation_rate#2", 100L),
            entry("gpgpu_silicon_slowdown", 124150L));
  }

  @Test
  void feed_givesTheSameResultAtEverySplitPointInTwoChunks() {
    byte[] log = SMALL_LOG.getBytes(StandardCharsets.UTF_8);
    List<String> whole = Recorder.events(log);

    for (int split = 0; split <= log.length; split++) {
      Recorder recorder = new Recorder();
      KernelStatsParser parser = new KernelStatsParser(recorder);
      parser.feed(log, 0, split);
      parser.feed(log, split, log.length - split);
      parser.finish();
      assertThat(recorder.events).as("split at byte %d", split).isEqualTo(whole);
    }
  }

  @Test
  void feed_givesTheSameResultInThreeChunksAndByteByByte() {
    byte[] log = SMALL_LOG.getBytes(StandardCharsets.UTF_8);
    List<String> whole = Recorder.events(log);

    for (int first = 0; first <= log.length; first++) {
      for (int second = first; second <= Math.min(log.length, first + 40); second++) {
        Recorder recorder = new Recorder();
        KernelStatsParser parser = new KernelStatsParser(recorder);
        parser.feed(log, 0, first);
        parser.feed(log, first, second - first);
        parser.feed(ByteBuffer.wrap(log, second, log.length - second).asReadOnlyBuffer());
        parser.finish();
        assertThat(recorder.events).as("splits at %d and %d", first, second).isEqualTo(whole);
      }
    }
    Recorder recorder = new Recorder();
    KernelStatsParser parser = new KernelStatsParser(recorder);
    for (int i = 0; i < log.length; i++) {
      parser.feed(log, i, 1);
    }
    parser.finish();
    assertThat(recorder.events).isEqualTo(whole);
  }

  @Test
  void parse_exitDetectedIsComplete() {
    LogOutcome outcome = LogSummary.parse("GPGPU-Sim: *** exit detected ***\n").outcome();

    assertThat(outcome.state()).isEqualTo(LogOutcome.State.COMPLETE);
    assertThat(outcome.complete()).isTrue();
  }

  @Test
  void parse_breakAtMaximumIsNotFinalEvenWhenExitFollows() {
    String log =
        SMALL_LOG.replace(
            "GPGPU-Sim: *** simulation thread exiting ***",
            "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **");

    LogSummary summary = LogSummary.parse(log);

    assertThat(summary.outcome().state()).isEqualTo(LogOutcome.State.NOT_FINAL);
    assertThat(summary.outcome().reason()).contains("break due to reaching the maximum cycles");
    assertThat(summary.complete()).isFalse();
    assertThat(summary.kernels()).hasSize(3);
  }

  @Test
  void parse_deadlockIsFailure() {
    String log =
        SMALL_LOG.replace(
            "GPGPU-Sim: *** simulation thread exiting ***",
            "\n\nGPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 3 @ gpu_sim_cycle"
                + " 100 (+ gpu_tot_sim_cycle 0) (50000 cycles ago)");

    LogOutcome outcome = LogSummary.parse(log).outcome();

    assertThat(outcome.state()).isEqualTo(LogOutcome.State.FAILED);
    assertThat(outcome.failed()).isTrue();
    assertThat(outcome.reason())
        .startsWith("GPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 3");
  }

  @Test
  void parse_olderDeadlockLineIsFailure() {
    LogOutcome outcome =
        LogSummary.parse("ERROR ** deadlock detected: last writeback @ gpu_sim_cycle 5\n")
            .outcome();

    assertThat(outcome.state()).isEqualTo(LogOutcome.State.FAILED);
  }

  @Test
  void parse_unsupportedBinaryVersionIsFailure() {
    String log =
        """
        Accel-Sim [build accelsim-commit-abc]
        Processing kernel /traces/kernel-1.traceg
        -binary version = 99
        unsupported binary version: 99
        """;

    LogOutcome outcome = LogSummary.parse(log).outcome();

    assertThat(outcome)
        .isEqualTo(new LogOutcome(LogOutcome.State.FAILED, "unsupported binary version: 99"));
  }

  @Test
  void parse_withoutAnEndLineIsIncompleteAndReportsItOnFinish() {
    String log = SMALL_LOG.substring(0, SMALL_LOG.indexOf("GPGPU-Sim: ***"));
    Recorder recorder = new Recorder();
    KernelStatsParser parser = new KernelStatsParser(recorder);
    parser.feed(log.getBytes(StandardCharsets.UTF_8));

    assertThat(parser.outcome().state()).isEqualTo(LogOutcome.State.INCOMPLETE);
    assertThat(recorder.events).noneMatch(event -> event.startsWith("end"));
    assertThat(parser.finish().state()).isEqualTo(LogOutcome.State.INCOMPLETE);
    assertThat(recorder.events).last().asString().startsWith("end ");
    assertThat(parser.kernelsFinished()).isEqualTo(3);
  }

  @Test
  void parse_failureIsNotUndoneByALaterExitLine() {
    String log = "unsupported binary version: 12\nGPGPU-Sim: *** exit detected ***\n";

    List<String> events = Recorder.events(log.getBytes(StandardCharsets.UTF_8));

    assertThat(events).hasSize(1).first().asString().startsWith("end LogOutcome[state=FAILED");
  }

  @Test
  void parse_closesABlockWithoutSlowdownLineAtTheNextKernelOrTheEnd() {
    String log =
        """
        kernel_name = a
        gpu_tot_sim_cycle = 10
        gpu_tot_sim_insn = 20
        kernel_name = b
        gpu_tot_sim_cycle = 15
        gpu_tot_sim_insn = 40
        launching kernel name: c uid: 7
        kernel_name = c
        gpu_sim_cycle = 5
        gpu_sim_insn = 6
        """;

    LogSummary summary = LogSummary.parse(log);

    assertThat(summary.kernels())
        .extracting(
            KernelStats::name, KernelStats::uid, KernelStats::cycles, KernelStats::instructions)
        .containsExactly(
            Tuple.tuple("a", 0L, 10L, 20L),
            Tuple.tuple("b", 0L, 5L, 20L),
            Tuple.tuple("c", 7L, 5L, 6L));
    assertThat(summary.outcome().state()).isEqualTo(LogOutcome.State.INCOMPLETE);
  }

  @Test
  void parse_totalsThatGoBackStartANewCount() {
    String log =
        """
        kernel_name = a
        gpu_tot_sim_cycle = 1000
        gpu_tot_sim_insn = 2000
        gpgpu_silicon_slowdown = 1x
        kernel_name = a
        gpu_tot_sim_cycle = 300
        gpu_tot_sim_insn = 600
        gpgpu_silicon_slowdown = 1x
        """;

    assertThat(LogSummary.parse(log).kernels())
        .extracting(KernelStats::cycles, KernelStats::instance)
        .containsExactly(Tuple.tuple(1000L, 0), Tuple.tuple(300L, 1));
  }

  @Test
  void parse_neverFailsOnGarbage() {
    Random random = new Random(42);
    byte[] garbage = new byte[200_000];
    random.nextBytes(garbage);
    for (int i = 0; i < garbage.length; i += 1 + random.nextInt(40)) {
      garbage[i] = (byte) "\n=:,. \t%k-0123456789e".charAt(random.nextInt(21));
    }
    byte[] log =
        (SMALL_LOG + new String(garbage, StandardCharsets.ISO_8859_1) + SMALL_LOG)
            .getBytes(StandardCharsets.ISO_8859_1);

    List<String> whole = Recorder.events(log);
    for (int chunk : new int[] {1, 7, 4096}) {
      Recorder recorder = new Recorder();
      KernelStatsParser parser = new KernelStatsParser(recorder);
      for (int i = 0; i < log.length; i += chunk) {
        parser.feed(log, i, Math.min(chunk, log.length - i));
      }
      parser.finish();
      assertThat(recorder.events).as("chunks of %d bytes", chunk).isEqualTo(whole);
    }
    assertThat(whole).filteredOn(event -> event.startsWith("kernel ")).hasSizeGreaterThan(2);
  }

  @Test
  void parse_malformedLinesInABlockAreSkipped() {
    String log =
        """
        kernel_name = k
        gpu_tot_sim_cycle = 12
        = 5
        key =
        key = abc
        key = -nan
        key = inf
        key = 1e999
        odd(key) = 3
        weird: = 4
        a: b = 1, c = x, = 2, d e = 3, f = 4
        big = 123456789012345678901234567890
        exp = 1.5e3
        negative = -42
        gpu_tot_sim_insn = 24
        gpgpu_silicon_slowdown = fast
        after = 1
        """;

    KernelStats kernel = LogSummary.parse(log).kernels().get(0);

    assertThat(kernel.stats())
        .containsExactly(
            entry("gpu_tot_sim_cycle", 12L),
            entry("a.b", 1L),
            entry("a.f", 4L),
            entry("big", 1.2345678901234568e29),
            entry("exp", 1500.0),
            entry("negative", -42L),
            entry("gpu_tot_sim_insn", 24L));
    assertThat(kernel.cycles()).isEqualTo(12);
    assertThat(kernel.instructions()).isEqualTo(24);
  }

  @Test
  void feed_dropsTheExcessOfAnOverlongLineAndGoesOn() {
    Recorder recorder = new Recorder();
    KernelStatsParser parser = new KernelStatsParser(recorder, 256);
    byte[] head = "kernel_name = k\ngpu_tot_sim_cycle = 7".getBytes(StandardCharsets.US_ASCII);
    parser.feed(head);
    byte[] spaces = new byte[1 << 16];
    Arrays.fill(spaces, (byte) ' ');
    for (int i = 0; i < 64; i++) {
      parser.feed(spaces); // 4 MiB of one line, kept to 256 bytes
    }
    parser.feed("9\ngpu_tot_sim_insn = 3\n".getBytes(StandardCharsets.US_ASCII));
    parser.finish();

    assertThat(recorder.kernels).hasSize(1);
    assertThat(recorder.kernels.get(0).cycles()).isEqualTo(7);
    assertThat(recorder.kernels.get(0).instructions()).isEqualTo(3);
  }

  @Test
  void feed_afterFinishIsRejected() {
    KernelStatsParser parser = new KernelStatsParser(new StatsListener() {});
    parser.finish();

    assertThat(parser.finish().state()).isEqualTo(LogOutcome.State.INCOMPLETE);
    assertThatThrownBy(() -> parser.feed(new byte[] {'x'}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("after finish()");
  }

  @Test
  void constructor_rejectsATinyLineCap() {
    assertThatThrownBy(() -> new KernelStatsParser(new StatsListener() {}, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'10'");
  }

  @Test
  void parse_keysStayUniqueEvenWhenTheLogUsesTheSuffix() {
    String log =
        """
        kernel_name = k
        x = 1
        x#2 = 2
        x = 3
        x = 4
        gpgpu_silicon_slowdown = 1x
        """;

    assertThat(LogSummary.parse(log).kernels().get(0).stats())
        .containsExactly(
            entry("x", 1L),
            entry("x#2", 2L),
            entry("x#3", 3L),
            entry("x#4", 4L),
            entry("gpgpu_silicon_slowdown", 1L));
  }

  @Test
  void parse_readsCrLfLines() {
    LogSummary summary = LogSummary.parse(SMALL_LOG.replace("\n", "\r\n"));

    assertThat(summary).isEqualTo(LogSummary.parse(SMALL_LOG));
  }

  @Test
  void keyHash_dependsOnlyOnTheBytes() {
    Random random = new Random(11);
    for (int round = 0; round < 100_000; round++) {
      byte[] key = new byte[random.nextInt(30)];
      random.nextBytes(key);
      int offset = random.nextInt(16);
      byte[] elsewhere = new byte[offset + key.length + random.nextInt(16)];
      random.nextBytes(elsewhere);
      System.arraycopy(key, 0, elsewhere, offset, key.length);

      assertThat(KeyTable.hash(elsewhere, offset, offset + key.length))
          .isEqualTo(KeyTable.hash(key, 0, key.length));
    }
  }

  private static Map.Entry<String, Number> entry(String key, Number value) {
    return Map.entry(key, value);
  }

  @Test
  void feedChannel_givesTheSameEventsAsFeedingTheBytes() throws IOException {
    byte[] log = SMALL_LOG.getBytes(StandardCharsets.UTF_8);
    Recorder recorder = new Recorder();
    KernelStatsParser parser = new KernelStatsParser(recorder);

    parser.feed(Channels.newChannel(new ByteArrayInputStream(log)));
    parser.finish();

    assertThat(recorder.events).isEqualTo(Recorder.events(log));
  }

  @Test
  void feedChannel_readError_keepsWhatCameBefore() {
    byte[] log = SMALL_LOG.getBytes(StandardCharsets.UTF_8);
    int cut = SMALL_LOG.indexOf("launching kernel name: second");
    InputStream failing =
        new SequenceInputStream(
            new ByteArrayInputStream(log, 0, cut),
            new InputStream() {
              @Override
              public int read() throws IOException {
                throw new IOException("disk gone");
              }
            });
    Recorder recorder = new Recorder();
    KernelStatsParser parser = new KernelStatsParser(recorder);

    assertThatThrownBy(() -> parser.feed(Channels.newChannel(failing)))
        .isInstanceOf(IOException.class)
        .hasMessage("disk gone");
    parser.finish();
    assertThat(recorder.kernels).extracting(KernelStats::name).containsExactly("noyau_\u00e9");
  }

  /** Records every event as a line of text. */
  static final class Recorder implements StatsListener {
    final List<String> events = new ArrayList<>();
    final List<KernelStats> kernels = new ArrayList<>();

    static List<String> events(byte[] log) {
      Recorder recorder = new Recorder();
      KernelStatsParser parser = new KernelStatsParser(recorder);
      parser.feed(log);
      parser.finish();
      return recorder.events;
    }

    @Override
    public void onBuild(BuildString build) {
      events.add("build " + build);
    }

    @Override
    public void onMemcpy(MemcpyCommand memcpy) {
      events.add("memcpy " + memcpy);
    }

    @Override
    public void onKernelLaunched(String name, long uid) {
      events.add("launch " + name + " " + uid);
    }

    @Override
    public void onKernelFinished(KernelStats stats) {
      kernels.add(stats);
      events.add("kernel " + stats);
    }

    @Override
    public void onEnd(LogOutcome outcome) {
      events.add("end " + outcome);
    }
  }
}
