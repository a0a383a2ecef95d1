package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.TraceUploads;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.s3.EmbeddedS3;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cascade traces push} against a real Cascade: the embedded S3 endpoint, and the HTTP API
 * the command polls, over one data dir.
 */
final class TracesPushCommandIT {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));

  @TempDir Path dataDir;
  @TempDir Path work;

  private Engine cascade;
  private HttpApi server;
  private EmbeddedS3 s3;
  private final Map<String, String> environment = new HashMap<>();
  private StringWriter out;
  private StringWriter err;

  @BeforeEach
  void start() {
    cascade =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .catalog(GpuConfigCatalog.builtIn())
                .uploadQuietPeriod(Duration.ofMillis(300))
                .traceRescanInterval(Duration.ofMillis(500))
                .mainUrl("http://127.0.0.1:9")
                .settings());
    server = HttpApi.start(cascade, ServerSettings.defaults().withPort(0));
    cascade.startLaunching(server.url());
    s3 = EmbeddedS3.builder().dataDir(dataDir).port(0).build().start();
    environment.put("CASCADE_S3_ENDPOINT", s3.endpoint().toString());
    environment.put("CASCADE_S3_ACCESS_KEY", s3.credentials().accessKey());
    environment.put("CASCADE_S3_SECRET_KEY", s3.credentials().secretKey());
    environment.put("CASCADE_URL", server.url());
  }

  @AfterEach
  void stop() {
    s3.close();
    server.close();
    cascade.close();
  }

  @Test
  void push_traceWithA21MbKernel_uploadsItInPartsAndWaitsUntilReady() throws IOException {
    Path trace = writeTrace(work.resolve("inline"), "{\"status\": \"complete\"}");
    writeBigKernel(trace.resolve("traces/kernel-3.traceg"), 21L << 20);
    Files.writeString(
        trace.resolve("traces/kernelslist.g"),
        "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");

    int exit = push(trace.toString(), "--id", "inline");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("Uploading 5 files")
        .contains("to s3://cascade/accelsim-traces/inline/ at " + s3.endpoint())
        .contains("Trace inline is ready: 3 kernels");
    assertThat(err.toString())
        .contains("  traces/kernel-3.traceg  21.0 MiB  (3/5)")
        .contains("  metadata.json");
    Trace ready = cascade.traces().get("inline");
    assertThat(ready.state()).isEqualTo(TraceState.READY);
    assertThat(
            Files.mismatch(
                trace.resolve("traces/kernel-3.traceg"),
                cascade.traces().folderOf("inline").resolve("traces/kernel-3.traceg")))
        .isEqualTo(-1);
  }

  @Test
  void push_withOnlyCascadeUrl_uploadsWhereThatServerSaysItTakesUploads() throws IOException {
    try (HttpApi telling =
        HttpApi.start(
            cascade,
            ServerSettings.defaults()
                .withPort(0)
                .withUploads(
                    new TraceUploads(s3.endpoint().toString(), s3.bucket(), "accelsim-traces/")))) {
      environment.remove("CASCADE_S3_ENDPOINT");
      environment.put("CASCADE_URL", telling.url());
      Path trace = writeTrace(work.resolve("told"), "{\"status\": \"complete\"}");

      int exit = push(trace.toString(), "--id", "told");

      assertThat(exit).as(err.toString()).isZero();
      assertThat(out.toString())
          .contains("to s3://" + s3.bucket() + "/accelsim-traces/told/ at " + s3.endpoint())
          .contains("Trace told is ready");
    }
  }

  @Test
  void push_bareRealTraceFolder_isReadyWithEightKernels() {
    Path gemm = FIXTURES.resolve("accelsim/real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(
        Files.isDirectory(gemm),
        "needs the fixture "
            + gemm
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit = push(gemm.toString(), "--id", "flashinfer-gemm");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains(
            "no metadata.json in the folder: uploading {\"status\": \"complete\","
                + " \"trace_gpu_arch\": \"sm_80\"}")
        .contains("Trace flashinfer-gemm is ready: 8 kernels");
    // As cascade run labels the same folder: its kernels say -binary version = 80, an A100's.
    assertThat(cascade.traces().find("flashinfer-gemm").orElseThrow().traceGpuArch())
        .isEqualTo("sm_80");
    assertThat(cascade.traces().folderOf("flashinfer-gemm").resolve("traces/kernel-8.traceg.xz"))
        .exists();
  }

  @Test
  void push_traceWhoseMetadataSaysFailed_endsWithTheReasonAndExit1() throws IOException {
    Path trace =
        writeTrace(
            work.resolve("crashed"), "{\"status\": \"failed\", \"error\": \"profiler crashed\"}");

    int exit = push(trace.toString(), "--id", "crashed");

    assertThat(exit).isEqualTo(1);
    assertThat(out.toString()).contains("Trace crashed failed: ").contains("profiler crashed");
  }

  @Test
  void push_again_reportsTheNewUploadNotTheEarlierOutcome() throws IOException {
    Path trace =
        writeTrace(
            work.resolve("again"), "{\"status\": \"failed\", \"error\": \"profiler crashed\"}");
    assertThat(push(trace.toString(), "--id", "again")).isEqualTo(1);
    Files.writeString(trace.resolve("metadata.json"), "{\"status\": \"complete\"}");

    int exit = push(trace.toString(), "--id", "again");

    assertThat(exit).as(out + "\n" + err).isZero();
    assertThat(out.toString()).contains("Trace again is ready: 2 kernels");
  }

  @Test
  void push_withAWrongSecret_isRefusedAndSaysWhatToSet() throws IOException {
    Path trace = writeTrace(work.resolve("refused"), "{\"status\": \"complete\"}");
    environment.put("CASCADE_S3_SECRET_KEY", "not-the-secret");

    int exit = push(trace.toString(), "--id", "refused", "--no-wait");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .contains("refused the key pair (SignatureDoesNotMatch)")
        .contains("CASCADE_S3_SECRET_KEY");
    assertThat(cascade.traces().folderOf("refused")).doesNotExist();
  }

  @Test
  void push_noWait_exitsOnceUploaded() throws IOException {
    Path trace = writeTrace(work.resolve("quick"), "{\"status\": \"complete\"}");
    environment.put("CASCADE_URL", "http://127.0.0.1:1"); // never asked

    int exit = push(trace.toString(), "--id", "quick", "--no-wait");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Uploaded ").doesNotContain("Waiting");
    assertThat(cascade.traces().folderOf("quick").resolve("metadata.json")).exists();
  }

  @Test
  void push_toAServerWantingAToken_saysToSetCascadeToken() throws IOException {
    Path trace = writeTrace(work.resolve("token"), "{\"status\": \"complete\"}");
    try (HttpApi guarded =
        HttpApi.start(cascade, ServerSettings.defaults().withPort(0).withToken("t0ken"))) {
      environment.put("CASCADE_URL", guarded.url());

      int refused = push(trace.toString(), "--id", "token");
      assertThat(refused).isEqualTo(1);
      assertThat(err.toString()).contains("needs a token").contains("CASCADE_TOKEN");

      environment.put("CASCADE_TOKEN", "t0ken");
      int exit = push(trace.toString(), "--id", "token");
      assertThat(exit).as(err.toString()).isZero();
      assertThat(out.toString()).contains("Trace token is ready: 2 kernels");
    }
  }

  @Test
  void push_whenCascadeIsNotReachable_failsBeforeUploading() throws IOException {
    Path trace = writeTrace(work.resolve("unreachable"), "{\"status\": \"complete\"}");
    environment.put("CASCADE_URL", "http://127.0.0.1:1");

    int exit = push(trace.toString(), "--id", "unreachable");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .contains("cannot reach Cascade at http://127.0.0.1:1")
        .contains("--no-wait");
    assertThat(cascade.traces().folderOf("unreachable")).doesNotExist();
  }

  // ---------------------------------------------------------------- helpers

  private int push(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    CommandLine commandLine =
        new CommandLine(
            new CascadeCommand(),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                K created = CommandLine.defaultFactory().create(type);
                if (created instanceof TracesPushCommand push) {
                  push.environment = Map.copyOf(environment);
                  push.interactive = false;
                  push.pollInterval = Duration.ofMillis(100);
                  push.settle = Duration.ofSeconds(2);
                  push.timeoutSeconds = 60;
                }
                return created;
              }
            });
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    String[] full = new String[args.length + 2];
    full[0] = "traces";
    full[1] = "push";
    System.arraycopy(args, 0, full, 2, args.length);
    return commandLine.execute(full);
  }

  /** A processed trace of two small kernels with this metadata.json. */
  private static Path writeTrace(Path folder, String metadata) throws IOException {
    Path traces = Files.createDirectories(folder.resolve("traces"));
    for (int k = 1; k <= 2; k++) {
      Files.writeString(
          traces.resolve("kernel-" + k + ".traceg"),
          header(k)
              + "#BEGIN_TB\n\n"
              + "thread block = 0,0,0\n\nwarp = 0\ninsts = 1\n"
              + "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 \n\n#END_TB\n");
    }
    Files.writeString(traces.resolve("kernelslist.g"), "kernel-1.traceg\nkernel-2.traceg\n");
    Files.writeString(folder.resolve("metadata.json"), metadata);
    return folder;
  }

  /** A valid kernel file of at least {@code minBytes}: a header, then warps of one instruction. */
  private static void writeBigKernel(Path file, long minBytes) throws IOException {
    StringBuilder warps = new StringBuilder();
    for (int warp = 0; warps.length() < (1 << 20); warp++) {
      warps
          .append("warp = ")
          .append(warp % 1024)
          .append("\ninsts = 1\n")
          .append("0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 \n\n");
    }
    byte[] block = warps.toString().getBytes(StandardCharsets.US_ASCII);
    try (var stream = Files.newOutputStream(file)) {
      stream.write(
          (header(3) + "#BEGIN_TB\n\nthread block = 0,0,0\n\n")
              .getBytes(StandardCharsets.US_ASCII));
      for (long written = 0; written < minBytes; written += block.length) {
        stream.write(block);
      }
      stream.write("#END_TB\n".getBytes(StandardCharsets.US_ASCII));
    }
  }

  private static String header(int kernelId) {
    return "-kernel name = kernel_"
        + kernelId
        + "\n-kernel id = "
        + kernelId
        + "\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"
        + "-binary version = 90\n-cuda stream id = 0\n\n#traces format = [line_num] PC mask"
        + " dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?]"
        + " [mem_addresses] immediate\n\n";
  }
}
