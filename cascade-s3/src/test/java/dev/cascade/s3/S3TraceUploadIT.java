package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.Cascade;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.trace.TraceStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads through the embedded S3 endpoint with the AWS SDK client, watched by an embedded Cascade
 * over the same data dir: the trace store must see each upload go uploading, processing, ready (or
 * failed), and never take the server's temporary files or multipart parts for trace files.
 */
final class S3TraceUploadIT {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Duration QUIET = Duration.ofMillis(300);
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dataDir;
  @TempDir Path work;

  private final Map<String, List<TraceState>> seen = new ConcurrentHashMap<>();
  private Cascade cascade;
  private EmbeddedS3 s3;
  private S3Client client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (s3 != null) {
      s3.close();
    }
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void inlineTrace_withA21MbKernelAsMultipart_goesUploadingProcessingReady() throws IOException {
    start(0);
    Path trace = Uploads.writeTrace(work.resolve("inline"), 2, Uploads.metadata("complete"));
    Uploads.writeBigKernel(trace.resolve("traces/kernel-3.traceg"), 3, 21L << 20);
    Files.writeString(
        trace.resolve("traces/kernelslist.g"),
        "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");
    assertThat(Files.size(trace.resolve("traces/kernel-3.traceg"))).isGreaterThan(20L << 20);

    Uploads.uploadTrace(client, "inline", trace);

    Trace ready = awaitFinished("inline");
    assertThat(ready.state()).isEqualTo(TraceState.READY);
    assertThat(ready.kernelCount()).isEqualTo(3);
    assertThat(ready.kernels().get(2).name()).isEqualTo("kernel_3");
    assertThat(ready.sizeBytes()).isGreaterThan(20L << 20);
    assertThat(seen.get("inline"))
        .containsExactly(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.READY);
    assertThat(hiddenOrTemporaryFiles()).isEmpty();
  }

  @Test
  void realFlashinferGemmTrace_isReadyWithEightKernels() throws IOException {
    Path gemm = FIXTURES.resolve("accelsim/real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(
        Files.isDirectory(gemm),
        "needs the fixture "
            + gemm
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
    start(0);
    Path trace = Files.createDirectories(work.resolve("gemm/traces"));
    try (Stream<Path> files = Files.list(gemm)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.copy(file, trace.resolve(file.getFileName()));
      }
    }
    Files.writeString(work.resolve("gemm/metadata.json"), Uploads.metadata("complete"));

    Uploads.uploadTrace(client, "flashinfer-gemm", work.resolve("gemm"));

    Trace ready = awaitFinished("flashinfer-gemm");
    assertThat(ready.state()).isEqualTo(TraceState.READY);
    assertThat(ready.kernelCount()).isEqualTo(8);
    assertThat(seen.get("flashinfer-gemm"))
        .containsExactly(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.READY);
  }

  @Test
  void metadataSayingFailed_endsFailedWithTheProfilersReason() throws IOException {
    start(0);
    Path trace =
        Uploads.writeTrace(
            work.resolve("crashed"),
            1,
            "{\"status\": \"failed\", \"error\": \"profiler crashed\"}");

    Uploads.uploadTrace(client, "crashed", trace);

    Trace failed = awaitFinished("crashed");
    assertThat(failed.state()).isEqualTo(TraceState.FAILED);
    assertThat(failed.reason()).contains("profiler crashed");
  }

  @Test
  void halfWrittenObject_isNeverAtItsFinalNameAndTheTraceWaits() throws Exception {
    start(0);
    Path trace = Uploads.writeTrace(work.resolve("slow"), 2, Uploads.metadata("complete"));
    Path big = Uploads.writeBigKernel(trace.resolve("traces/kernel-3.traceg"), 3, 4L << 20);
    Files.writeString(
        trace.resolve("traces/kernelslist.g"),
        "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");
    for (String file : List.of("traces/kernel-1.traceg", "traces/kernel-2.traceg")) {
      Uploads.put(client, Uploads.traceKey("slow", file), trace.resolve(file));
    }
    Uploads.put(
        client,
        Uploads.traceKey("slow", "traces/kernelslist.g"),
        trace.resolve("traces/kernelslist.g"));
    CountDownLatch release = new CountDownLatch(1);
    byte[] bytes = Files.readAllBytes(big);
    int head = 1 << 20;
    CompletableFuture<Void> slowPut =
        CompletableFuture.runAsync(
            () ->
                client.putObject(
                    b ->
                        b.bucket("cascade").key(Uploads.traceKey("slow", "traces/kernel-3.traceg")),
                    RequestBody.fromContentProvider(
                        () -> stalling(bytes, head, release), bytes.length, "text/plain")));
    Path folder = cascade.traces().folderOf("slow");
    try {
      await().atMost(TIMEOUT).until(() -> temporaryFiles(folder.resolve("traces")).size() == 1);

      assertThat(folder.resolve("traces/kernel-3.traceg")).doesNotExist();
      assertThat(temporaryFiles(folder.resolve("traces")).getFirst())
          .matches("kernel-3\\.traceg-[0-9a-f-]{36}");
      await()
          .during(QUIET.multipliedBy(3))
          .atMost(TIMEOUT)
          .until(() -> state("slow"), state -> state.equals(Optional.of(TraceState.UPLOADING)));
    } finally {
      release.countDown();
    }
    slowPut.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    assertThat(folder.resolve("traces/kernel-3.traceg")).hasSize(bytes.length);
    Uploads.put(client, Uploads.traceKey("slow", "metadata.json"), trace.resolve("metadata.json"));

    Trace ready = awaitFinished("slow");
    assertThat(ready.state()).isEqualTo(TraceState.READY);
    assertThat(ready.kernelCount()).isEqualTo(3);
  }

  @Test
  void uploadSpanningARestartOfCascadeAndS3_endsReady() throws IOException {
    start(0);
    int port = s3.port();
    var credentials = s3.credentials();
    Path trace = Uploads.writeTrace(work.resolve("restart"), 2, Uploads.metadata("complete"));
    Path big = Uploads.writeBigKernel(trace.resolve("traces/kernel-3.traceg"), 3, 21L << 20);
    Files.writeString(
        trace.resolve("traces/kernelslist.g"),
        "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");
    String bigKey = Uploads.traceKey("restart", "traces/kernel-3.traceg");

    // Before the restart: the small kernels, and the first part of the big one.
    for (String file : List.of("traces/kernel-1.traceg", "traces/kernel-2.traceg")) {
      Uploads.put(client, Uploads.traceKey("restart", file), trace.resolve(file));
    }
    String uploadId = Uploads.startMultipart(client, bigKey);
    List<CompletedPart> parts = new ArrayList<>();
    parts.add(Uploads.uploadPart(client, bigKey, uploadId, big, 1));
    await()
        .atMost(TIMEOUT)
        .until(() -> state("restart"), state -> state.equals(Optional.of(TraceState.UPLOADING)));

    s3.close();
    cascade.close();
    start(port, credentials);

    // After it: the rest of the multipart upload, kernelslist.g, and metadata.json last.
    for (int n = 2; n <= Uploads.partCount(big); n++) {
      parts.add(Uploads.uploadPart(client, bigKey, uploadId, big, n));
    }
    Uploads.completeMultipart(client, bigKey, uploadId, parts);
    Uploads.put(
        client,
        Uploads.traceKey("restart", "traces/kernelslist.g"),
        trace.resolve("traces/kernelslist.g"));
    Uploads.put(
        client, Uploads.traceKey("restart", "metadata.json"), trace.resolve("metadata.json"));

    Trace ready = awaitFinished("restart");
    assertThat(ready.state()).isEqualTo(TraceState.READY);
    assertThat(ready.kernelCount()).isEqualTo(3);
    assertThat(
            Files.mismatch(
                big, cascade.traces().folderOf("restart").resolve("traces/kernel-3.traceg")))
        .isEqualTo(-1);
  }

  // ---------------------------------------------------------------- helpers

  private void start(int port) {
    start(port, null);
  }

  /** Starts Cascade and the S3 endpoint over {@link #dataDir}, and a client for the endpoint. */
  private void start(int port, S3Credentials credentials) {
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .catalog(GpuConfigCatalog.builtIn())
            .uploadQuietPeriod(QUIET)
            .traceRescanInterval(Duration.ofMillis(500))
            .build()
            .start();
    // Every state a trace passes through, however briefly: only the store's own listener sees them.
    ((TraceStore) cascade.traces())
        .addListener(
            trace ->
                seen.computeIfAbsent(trace.id(), id -> new CopyOnWriteArrayList<>())
                    .add(trace.state()));
    EmbeddedS3.Builder builder = EmbeddedS3.builder().dataDir(dataDir).port(port);
    if (credentials != null) {
      builder.credentials(credentials);
    }
    s3 = builder.build().start();
    if (client == null) {
      client = Uploads.client(s3);
    }
  }

  private Optional<TraceState> state(String id) {
    return cascade.traces().find(id).map(Trace::state);
  }

  private Trace awaitFinished(String id) {
    return await()
        .atMost(TIMEOUT)
        .until(
            () -> cascade.traces().find(id).orElse(null),
            trace ->
                trace != null
                    && (trace.state() == TraceState.READY || trace.state() == TraceState.FAILED));
  }

  /** Files under the bucket that are an upload's bookkeeping: none once uploads are done. */
  private List<String> hiddenOrTemporaryFiles() throws IOException {
    Path bucket = dataDir.resolve("s3/cascade");
    try (Stream<Path> walk = Files.walk(bucket)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> bucket.relativize(p).toString())
          .filter(
              name ->
                  name.contains("/.") || name.startsWith(".") || name.matches(".*-[0-9a-f-]{36}"))
          .toList();
    }
  }

  private static List<String> temporaryFiles(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(
              name ->
                  name.matches(".+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"))
          .toList();
    }
  }

  /** {@code bytes}, whose first {@code head} bytes come at once and the rest after {@code go}. */
  private static InputStream stalling(byte[] bytes, int head, CountDownLatch go) {
    InputStream first = new ByteArrayInputStream(bytes, 0, head);
    InputStream rest =
        new InputStream() {
          private InputStream tail;

          private InputStream tail() throws IOException {
            if (tail == null) {
              try {
                if (!go.await(60, TimeUnit.SECONDS)) {
                  throw new IOException("the test never released the upload");
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
              }
              tail = new ByteArrayInputStream(bytes, head, bytes.length - head);
            }
            return tail;
          }

          @Override
          public int read() throws IOException {
            return tail().read();
          }

          @Override
          public int read(byte[] buffer, int offset, int length) throws IOException {
            return tail().read(buffer, offset, length);
          }
        };
    return new SequenceInputStream(first, rest);
  }
}
