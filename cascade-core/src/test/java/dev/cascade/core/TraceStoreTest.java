package dev.cascade.core;

import static dev.cascade.core.internal.trace.TestTraces.append;
import static dev.cascade.core.internal.trace.TestTraces.traceg;
import static dev.cascade.core.internal.trace.TestTraces.write;
import static dev.cascade.core.internal.trace.TestTraces.writeProcessedTrace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.demo.DemoTraceSeeder;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceStoreTest {

  private static final Duration QUIET = Duration.ofMillis(300);
  private static final Duration RESCAN = Duration.ofMillis(250);
  private static final Duration PATIENCE = Duration.ofSeconds(10);
  private static final String DONE = "{\"status\": \"done\"}";
  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));

  @TempDir Path dataDir;
  @TempDir Path outside;

  private Database database;
  private TraceStore store;
  private final List<Trace> events = new CopyOnWriteArrayList<>();
  private ScheduledExecutorService uploader;

  @BeforeEach
  void openDatabase() {
    database = Database.open(dataDir.resolve("cascade.db"));
  }

  @AfterEach
  void closeAll() {
    if (uploader != null) {
      uploader.shutdownNow();
    }
    if (store != null) {
      store.close();
    }
    database.close();
  }

  private TraceStore start() {
    return start(QUIET);
  }

  private TraceStore start(Duration quietPeriod) {
    store =
        TraceStore.builder()
            .dataDir(dataDir)
            .database(database)
            .quietPeriod(quietPeriod)
            .rescanInterval(RESCAN)
            .build();
    store.addListener(events::add);
    return store.start();
  }

  private Path trace(String id) {
    return dataDir.resolve("s3/cascade/accelsim-traces").resolve(id);
  }

  private TraceState state(String id) {
    return store.find(id).map(Trace::state).orElse(null);
  }

  private List<TraceState> statesSeen(String id) {
    return events.stream().filter(t -> t.id().equals(id)).map(Trace::state).toList();
  }

  private void awaitState(String id, TraceState state) {
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(state(id)).isEqualTo(state));
  }

  @Test
  void upload_goesUploadingThenProcessingThenReady() {
    start();
    writeProcessedTrace(trace("t1"), DONE, 3);

    awaitState("t1", TraceState.READY);

    Trace trace = store.get("t1");
    assertThat(statesSeen("t1"))
        .containsExactly(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.READY);
    assertThat(trace.kernelCount()).isEqualTo(3);
    assertThat(trace.kernels())
        .extracting(TraceKernel::index, TraceKernel::file, TraceKernel::name, TraceKernel::grid)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, "kernel-1.traceg", "k1", "2,1,1"),
            org.assertj.core.groups.Tuple.tuple(2, "kernel-2.traceg", "k2", "2,1,1"),
            org.assertj.core.groups.Tuple.tuple(3, "kernel-3.traceg", "k3", "2,1,1"));
    assertThat(trace.kernels()).allSatisfy(k -> assertThat(k.block()).isEqualTo("64,1,1"));
    assertThat(trace.reason()).isNull();
    assertThat(trace.traceGpuArch()).isEqualTo("sm_90");
    assertThat(trace.sizeBytes()).isEqualTo(sizeOnDisk(trace("t1")));
    assertThat(trace.runnable()).isTrue();
    assertThat(trace.updatedAt()).isAfterOrEqualTo(trace.createdAt());
  }

  @Test
  void seededDemo_isReadyAtOnce_whileAnUploadStillWaitsOutTheQuietPeriod() throws IOException {
    DemoTraceSeeder.seedIfEmpty(TraceStore.tracesFolder(dataDir));
    writeProcessedTrace(trace("t1"), DONE, 1);
    store =
        TraceStore.builder()
            .dataDir(dataDir)
            .database(database)
            .quietPeriod(Duration.ofHours(1))
            .rescanInterval(RESCAN)
            .build()
            .start();

    // Processing the demo (its emulator counts) took over 10 s on a loaded two-core CI machine;
    // the upload beside it waits an hour, so a minute still shows the demo does not wait.
    await()
        .atMost(Duration.ofMinutes(1))
        .untilAsserted(
            () -> assertThat(state(DemoTraceSeeder.DEMO_ID)).isEqualTo(TraceState.READY));

    assertThat(state("t1")).isEqualTo(TraceState.UPLOADING);
    assertThat(trace(DemoTraceSeeder.DEMO_ID).resolve(".cascade-written-whole")).doesNotExist();
  }

  @Test
  void upload_staysUploadingWhileFilesKeepChanging() {
    // A quiet period 50 times the client's pace, so a loaded machine's pauses do not end it.
    start(Duration.ofSeconds(3));
    Path folder = trace("slow");
    write(folder.resolve("metadata.json"), DONE);
    write(folder.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    AtomicInteger step = new AtomicInteger();
    uploader = Executors.newSingleThreadScheduledExecutor();
    // A slow client: a new file or another piece of a growing file every 60 ms, for 1.5 s.
    uploader.scheduleAtFixedRate(
        () -> {
          int n = step.incrementAndGet();
          if (n > 25) {
            return;
          }
          if (n % 2 == 0) {
            append(
                folder.resolve("traces/kernel-1.traceg"),
                n == 2 ? traceg("k1", 1, "1,1,1", "32,1,1") : "\n");
          } else {
            write(folder.resolve("traces/extra-" + n + ".bin"), "x".repeat(n));
          }
        },
        0,
        60,
        TimeUnit.MILLISECONDS);
    awaitState("slow", TraceState.UPLOADING);

    await()
        .during(Duration.ofMillis(1000))
        .atMost(PATIENCE)
        .until(() -> step.get() > 25 || state("slow") == TraceState.UPLOADING);
    assertThat(statesSeen("slow")).containsOnly(TraceState.UPLOADING);

    await().atMost(PATIENCE).until(() -> step.get() > 25);
    awaitState("slow", TraceState.READY);
    assertThat(statesSeen("slow"))
        .containsExactly(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.READY);
  }

  @Test
  void metadataSayingRunning_staysUploadingUntilItSaysDone() {
    start();
    writeProcessedTrace(trace("run"), "{\"status\": \"running\"}", 1);
    awaitState("run", TraceState.UPLOADING);

    await()
        .during(QUIET.multipliedBy(3))
        .atMost(PATIENCE)
        .until(() -> state("run") == TraceState.UPLOADING);

    write(trace("run").resolve("metadata.json"), "{\"status\": \"complete\"}");
    awaitState("run", TraceState.READY);
  }

  @Test
  void metadataWithoutStatus_countsAsDone() {
    start();
    writeProcessedTrace(trace("plain"), "{}", 1);

    awaitState("plain", TraceState.READY);
  }

  @Test
  void metadataSayingFailed_failsWithTheProfilersError() {
    start();
    writeProcessedTrace(
        trace("oom"), "{\"status\": \"failed\", \"error\": \"CUDA out of memory in layer 10\"}", 1);

    awaitState("oom", TraceState.FAILED);

    assertThat(store.get("oom").reason()).contains("CUDA out of memory in layer 10");
    assertThat(statesSeen("oom")).doesNotContain(TraceState.PROCESSING, TraceState.READY);
  }

  @Test
  void metadataSayingFailed_withoutAnError_saysSo() {
    start();
    writeProcessedTrace(trace("silent"), "{\"status\": \"failed\"}", 1);

    awaitState("silent", TraceState.FAILED);

    assertThat(store.get("silent").reason()).contains("metadata.json").contains("failed");
  }

  @Test
  void malformedMetadata_staysUploadingUntilQuietThenFailsNamingTheFile() {
    start();
    writeProcessedTrace(trace("broken"), "{\"status\": \"done\",\n \"model\": ", 1);

    awaitState("broken", TraceState.FAILED);

    assertThat(store.get("broken").reason()).startsWith("metadata.json:2:").contains("JSON");
    assertThat(statesSeen("broken")).containsExactly(TraceState.UPLOADING, TraceState.FAILED);
  }

  @Test
  void corruptKernelsList_failsNamingFileAndLine() {
    start();
    Path folder = trace("corrupt");
    writeProcessedTrace(folder, DONE, 2);
    write(
        folder.resolve("traces/kernelslist.g"),
        "kernel-1.traceg\nkernel-2.traceg\nthis is not a kernel line\n");

    awaitState("corrupt", TraceState.FAILED);

    assertThat(store.get("corrupt").reason())
        .startsWith("traces/kernelslist.g:3: ")
        .contains("this is not a kernel line");
    assertThat(statesSeen("corrupt"))
        .containsExactly(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.FAILED);
  }

  @Test
  void kernelFileMissing_failsNamingTheLine() {
    start();
    Path folder = trace("missing");
    writeProcessedTrace(folder, DONE, 1);
    append(folder.resolve("traces/kernelslist.g"), "kernel-2.traceg\n");

    awaitState("missing", TraceState.FAILED);

    assertThat(store.get("missing").reason())
        .startsWith("traces/kernelslist.g:3: ")
        .contains("kernel-2.traceg");
  }

  @Test
  void noKernelsListAtAll_failsSayingWhatIsMissing() {
    start();
    write(trace("empty").resolve("metadata.json"), DONE);

    awaitState("empty", TraceState.FAILED);

    assertThat(store.get("empty").reason()).contains("traces/kernelslist.g is missing");
  }

  @Test
  void metadataFacts_areKeptAndUnknownKeysIgnored() {
    start();
    writeProcessedTrace(
        trace("facts"),
        """
        {"status": "done", "trace_gpu_arch": "sm_80", "suggested_sim_config": "SM80_A100",
         "model_name": "facebook/opt-125m", "traced_layers": ["model.decoder.layers.10.self_attn"],
         "sample": true, "profiler": {"version": 3}, "anything": [1, 2]}
        """,
        1);

    awaitState("facts", TraceState.READY);

    Trace trace = store.get("facts");
    assertThat(trace.traceGpuArch()).isEqualTo("sm_80");
    assertThat(trace.suggestedSimConfig()).isEqualTo("SM80_A100");
    assertThat(trace.modelName()).isEqualTo("facebook/opt-125m");
    assertThat(trace.tracedLayers()).containsExactly("model.decoder.layers.10.self_attn");
    assertThat(trace.sample()).isTrue();
    assertThat(trace.runnable()).isFalse();
  }

  @Test
  void foldersThatAreNotTraces_areListedWithTheirReason() throws IOException {
    start();
    writeProcessedTrace(outside.resolve("secret"), DONE, 1);
    Path traces = store.tracesFolder();
    Files.createDirectories(traces);
    Files.createSymbolicLink(traces.resolve("evil"), outside.resolve("secret"));
    writeProcessedTrace(traces.resolve("bad id"), DONE, 1);
    writeProcessedTrace(traces.resolve("good"), DONE, 1);
    Files.writeString(traces.resolve("notes.txt"), "a plain file is no trace folder");
    Files.createDirectories(traces.resolve(".mpus-upload"));

    awaitState("good", TraceState.READY);
    store.rescan();

    assertThat(store.skippedFolders())
        .extracting(SkippedFolder::name)
        .containsExactly("bad id", "evil");
    assertThat(store.skippedFolders().get(0).reason()).contains("bad id").contains("trace id");
    assertThat(store.skippedFolders().get(1).reason()).contains("symbolic link");
  }

  @Test
  void maliciousIds_areNeverListedNorResolvedOutside() throws IOException {
    start();
    writeProcessedTrace(outside.resolve("secret"), DONE, 1);
    Path traces = store.tracesFolder();
    Files.createDirectories(traces);
    Files.createSymbolicLink(traces.resolve("evil"), outside.resolve("secret"));
    writeProcessedTrace(traces.resolve("bad id"), DONE, 1);
    writeProcessedTrace(traces.resolve("%2e%2e"), DONE, 1);
    writeProcessedTrace(traces.resolve("good"), DONE, 1);

    awaitState("good", TraceState.READY);
    store.rescan();

    assertThat(store.list()).extracting(Trace::id).containsExactly("good");
    assertThat(events).extracting(Trace::id).containsOnly("good");
    for (String id : List.of("..", ".", "../secret", "a/b", "bad id", "%2e%2e", "", "x\u0000")) {
      assertThatThrownBy(() -> store.folderOf(id))
          .isInstanceOfSatisfying(
              CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID));
      assertThat(store.find(id)).isEmpty();
    }
    assertThatThrownBy(() -> store.folderOf(null)).isInstanceOf(CascadeException.class);
    assertThatThrownBy(() -> store.folderOf("evil"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.FORBIDDEN);
              assertThat(e.getMessage()).contains("outside the traces folder");
            });
    assertThat(store.folderOf("good")).isEqualTo(traces.resolve("good"));
    assertThat(store.folderOf("not-yet-uploaded").getParent()).isEqualTo(traces);
    assertThat(store.find("evil")).isEmpty();
  }

  @Test
  void temporaryUploadFiles_aloneAreNoTrace() {
    start();
    Path folder = trace("temps");
    write(
        folder.resolve(".mpus-3f2504e0-4f89-11d3-9a0c-0305e82c3301-x/traces/kernel-1.traceg-1"),
        "x");
    write(
        folder.resolve("traces/kernelslist.g-3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "kernel-1\n");
    write(folder.resolve("metadata.json.1a2b3c4d.partial"), DONE);
    write(folder.resolve("3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "");
    writeProcessedTrace(
        trace(".mpus-3f2504e0-4f89-11d3-9a0c-0305e82c3301-parts"),
        DONE,
        1); // hidden: never a trace
    writeProcessedTrace(trace("real"), DONE, 1);

    awaitState("real", TraceState.READY);
    store.rescan();

    assertThat(store.list()).extracting(Trace::id).containsExactly("real");
    assertThat(store.find("temps")).isEmpty();
  }

  @Test
  void temporaryKernelsList_stillGrowing_keepsTheTraceUploadingUntilRenamed() throws IOException {
    start();
    Path folder = trace("inflight");
    writeProcessedTrace(folder, DONE, 1);
    Path list = folder.resolve("traces/kernelslist.g");
    Path temp = folder.resolve("traces/kernelslist.g-3f2504e0-4f89-11d3-9a0c-0305e82c3301");
    Files.move(list, temp);
    AtomicInteger step = new AtomicInteger();
    uploader = Executors.newSingleThreadScheduledExecutor();
    uploader.scheduleAtFixedRate(
        () -> {
          if (step.incrementAndGet() <= 20) {
            append(temp, "\n");
          }
        },
        0,
        60,
        TimeUnit.MILLISECONDS);
    awaitState("inflight", TraceState.UPLOADING);

    await()
        .during(Duration.ofMillis(900))
        .atMost(PATIENCE)
        .until(() -> step.get() > 20 || state("inflight") == TraceState.UPLOADING);
    assertThat(statesSeen("inflight")).containsOnly(TraceState.UPLOADING);
    await().atMost(PATIENCE).until(() -> step.get() > 20);
    uploader.shutdownNow();
    Files.move(temp, list); // what s3proxy does when the object is complete

    awaitState("inflight", TraceState.READY);
    assertThat(store.get("inflight").sizeBytes()).isEqualTo(sizeOnDisk(folder));
  }

  @Test
  void multipartPartsAtTheBucketRoot_keepTheTraceUploading() {
    // Parts written every 60 ms must keep the trace from a quiet period far longer than that: a
    // 300 ms one was outrun by a writer thread starved on a loaded machine (CI saw it go ready).
    start(Duration.ofSeconds(3));
    writeProcessedTrace(trace("mpu"), DONE, 1);
    Path part =
        dataDir.resolve(
            "s3/cascade/.mpus-3f2504e0-4f89-11d3-9a0c-0305e82c3301-accelsim-traces/mpu/traces/"
                + "kernel-2.traceg-1");
    AtomicInteger step = new AtomicInteger();
    uploader = Executors.newSingleThreadScheduledExecutor();
    uploader.scheduleAtFixedRate(
        () -> {
          if (step.incrementAndGet() <= 20) {
            append(part, "part data\n");
          }
        },
        0,
        60,
        TimeUnit.MILLISECONDS);
    awaitState("mpu", TraceState.UPLOADING);

    await()
        .during(Duration.ofMillis(900))
        .atMost(PATIENCE)
        .until(() -> step.get() > 20 || state("mpu") == TraceState.UPLOADING);
    assertThat(statesSeen("mpu")).containsOnly(TraceState.UPLOADING);

    await()
        .atMost(Duration.ofMinutes(1))
        .untilAsserted(() -> assertThat(state("mpu")).isEqualTo(TraceState.READY));
  }

  @Test
  void rawKernelsList_isPostProcessedThenReady() {
    start();
    Path folder = trace("raw");
    write(folder.resolve("metadata.json"), DONE);
    write(folder.resolve("traces/kernelslist"), "kernel-1.trace\n");
    write(
        folder.resolve("traces/kernel-1.trace"),
        "-kernel name = raw_kernel\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
            + "-shmem = 0\n-nregs = 8\n-binary version = 90\n-cuda stream id = 0\n"
            + "-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = 1.7\n"
            + "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#traces format = [line_num]"
            + " PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width"
            + " [adrrescompress?] [mem_addresses] immediate\n\n"
            + "0 0 0 0 0080 00000003 1 R9 IMAD.MOV.U32 1 R4 0 7 \n"
            + "0 0 0 0 0090 00000003 0 EXIT 0 0 0 \n");

    await()
        .atMost(PATIENCE)
        .until(() -> state("raw") == TraceState.READY || state("raw") == TraceState.FAILED);

    Trace trace = store.get("raw");
    assertThat(trace.reason()).isNull();
    assertThat(trace.state()).isEqualTo(TraceState.READY);
    assertThat(folder.resolve("traces/kernelslist.g")).exists();
    assertThat(trace.kernelCount()).isEqualTo(1);
    assertThat(trace.kernels().getFirst().name()).isEqualTo("raw_kernel");
    assertThat(trace.kernels().getFirst().instructions()).isEqualTo(2L);
  }

  @Test
  void readyTrace_whoseFilesChange_isProcessedAgain() {
    start();
    Path folder = trace("again");
    writeProcessedTrace(folder, DONE, 1);
    awaitState("again", TraceState.READY);

    write(folder.resolve("traces/kernel-2.traceg"), traceg("k2", 2, "1,1,1", "32,1,1"));
    append(folder.resolve("traces/kernelslist.g"), "kernel-2.traceg\n");

    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(store.get("again").kernelCount()).isEqualTo(2));
    assertThat(store.get("again").state()).isEqualTo(TraceState.READY);
    assertThat(statesSeen("again"))
        .containsExactly(
            TraceState.UPLOADING,
            TraceState.PROCESSING,
            TraceState.READY,
            TraceState.UPLOADING,
            TraceState.PROCESSING,
            TraceState.READY);
  }

  @Test
  void deletedTraceFolder_isForgotten() throws IOException {
    start();
    writeProcessedTrace(trace("gone"), DONE, 1);
    awaitState("gone", TraceState.READY);

    try (Stream<Path> files = Files.walk(trace("gone"))) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }

    await().atMost(PATIENCE).until(() -> store.find("gone").isEmpty());
  }

  @Test
  void restart_keepsStatesAndProcessesWhatFinishedUploadingWhileDown() {
    start();
    writeProcessedTrace(trace("kept"), DONE, 2);
    writeProcessedTrace(trace("refused"), "{\"status\": \"failed\", \"error\": \"boom\"}", 1);
    writeProcessedTrace(trace("grown"), DONE, 1);
    awaitState("grown", TraceState.READY);
    awaitState("kept", TraceState.READY);
    awaitState("refused", TraceState.FAILED);
    Trace keptBefore = store.get("kept");
    store.close();
    database.close();

    // While Cascade is down: one trace finishes uploading, another gets a second kernel.
    writeProcessedTrace(trace("late"), DONE, 4);
    writeProcessedTrace(trace("grown"), DONE, 2);

    database = Database.open(dataDir.resolve("cascade.db"));
    events.clear();
    store =
        TraceStore.builder()
            .dataDir(dataDir)
            .database(database)
            .quietPeriod(QUIET)
            .rescanInterval(RESCAN)
            .build();
    store.addListener(events::add);
    assertThat(store.get("kept")).isEqualTo(keptBefore);
    assertThat(store.get("refused").reason()).isEqualTo("boom");
    store.start();

    awaitState("late", TraceState.READY);
    assertThat(store.get("late").kernelCount()).isEqualTo(4);
    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(store.get("grown").kernelCount()).isEqualTo(2));
    assertThat(state("grown")).isEqualTo(TraceState.READY);
    store.rescan();
    assertThat(store.get("kept")).isEqualTo(keptBefore);
    assertThat(state("refused")).isEqualTo(TraceState.FAILED);
    assertThat(events).extracting(Trace::id).containsOnly("late", "grown");
  }

  @Test
  void close_stopsEveryThreadOfTheStore() {
    start();
    writeProcessedTrace(trace("t"), DONE, 1);
    awaitState("t", TraceState.READY);
    assertThat(storeThreads()).isNotEmpty();

    store.close();

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(storeThreads()).isEmpty());
    assertThatThrownBy(store::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void get_unknownId_isNotFound_invalidId_isBadRequest() {
    start();

    assertThatThrownBy(() -> store.get("nothing-here"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
              assertThat(e.getMessage()).contains("\"nothing-here\"");
            });
    assertThatThrownBy(() -> store.get("../etc"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("trace_id");
              assertThat(e.getMessage()).isEqualTo(Trace.invalidId("../etc").getMessage());
            });
  }

  @Test
  void builder_rejectsMissingAndBadSettings() {
    assertThatThrownBy(() -> TraceStore.builder().database(database).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dataDir");
    assertThatThrownBy(() -> TraceStore.builder().quietPeriod(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quietPeriod");
    assertThatThrownBy(() -> TraceStore.builder().rescanInterval(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rescanInterval");
  }

  @Test
  void realFlashinferGemmTrace_isReadyWithEightKernels() throws IOException {
    Path source = FIXTURES.resolve("accelsim/real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(
        Files.isDirectory(source),
        "needs the fixture "
            + source
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
    Path folder = trace("20261107-120000__flashinfer__gemm");
    Files.createDirectories(folder.resolve("traces"));
    try (Stream<Path> files = Files.list(source)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.equals("kernelslist.g") || name.endsWith(".traceg.xz")) {
          Files.copy(file, folder.resolve("traces").resolve(name));
        }
      }
    }
    write(
        folder.resolve("metadata.json"),
        "{\"status\": \"done\", \"trace_gpu_arch\": \"sm_80\", \"model\": \"flashinfer gemm\"}");
    start();

    awaitState("20261107-120000__flashinfer__gemm", TraceState.READY);

    Trace trace = store.get("20261107-120000__flashinfer__gemm");
    assertThat(trace.kernelCount()).isEqualTo(8);
    assertThat(trace.kernels()).hasSize(8);
    assertThat(trace.kernels().getFirst().file()).isEqualTo("kernel-1.traceg.xz");
    assertThat(trace.kernels().getFirst().name())
        .startsWith("_ZN2at6native54_GLOBAL__N__0d993ca2_21_DistributionNormal");
    assertThat(trace.kernels().getFirst().grid()).isEqualTo("1,1,1");
    assertThat(trace.kernels().getFirst().block()).isEqualTo("256,1,1");
    assertThat(trace.kernels()).allSatisfy(k -> assertThat(k.name()).isNotBlank());
    assertThat(trace.traceGpuArch()).isEqualTo("sm_80");
    assertThat(trace.modelName()).isEqualTo("flashinfer gemm");
    assertThat(trace.sizeBytes()).isEqualTo(sizeOnDisk(folder));
  }

  private static List<Thread> storeThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith("cascade-trace-"))
        .toList();
  }

  private static long sizeOnDisk(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().contains("-3f2504e0"))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .sum();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
