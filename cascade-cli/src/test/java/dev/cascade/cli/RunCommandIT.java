package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class RunCommandIT {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Map<String, String> FAST = Map.of("CASCADE_EMULATE_SPEED", "0");

  @TempDir Path dataDir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    RunCommand command = new RunCommand();
    command.environment = FAST;
    CommandLine commandLine = new CommandLine(command);
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @Test
  void run_demoOnTwoConfigs_printsTheComparisonAsJsonAndExitsZero() throws Exception {
    int exit =
        run("demo", "SM90_H100:2", "SM90_H200:1", "--data-dir", dataDir.toString(), "--json");

    assertThat(exit).as(err.toString()).isZero();
    JsonNode result = new ObjectMapper().readTree(out.toString());
    assertThat(result.get("state").asText()).isEqualTo("succeeded");
    assertThat(result.get("kernel_count").asInt()).isEqualTo(5);
    assertThat(result.get("configs")).hasSize(2);
    assertThat(result.get("configs").get(0).get("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(result.get("configs").get(0).get("succeeded").asInt()).isEqualTo(2);
    assertThat(err.toString()).contains("[##########] 5/5").contains("succeeded");
  }

  @Test
  void run_withASweptParam_runsAVariantPerValue_andNamesTheirParams() throws Exception {
    int exit =
        run(
            "demo",
            "SM90_H100:1",
            "--param=-gpgpu_n_clusters=66,132",
            "--param",
            "gpgpu_kernel_launch_latency=3000",
            "--data-dir",
            dataDir.toString(),
            "--json");

    assertThat(exit).as(err.toString()).isZero();
    JsonNode configs = new ObjectMapper().readTree(out.toString()).get("configs");
    assertThat(configs).hasSize(2);
    assertThat(configs.get(0).get("gpu_config").asText())
        .isEqualTo("SM90_H100 -gpgpu_kernel_launch_latency=3000 -gpgpu_n_clusters=66");
    assertThat(configs.get(0).get("base").asText()).isEqualTo("SM90_H100");
    assertThat(configs.get(0).get("params").get("-gpgpu_n_clusters").asText()).isEqualTo("66");
    assertThat(configs.get(1).get("params").get("-gpgpu_n_clusters").asText()).isEqualTo("132");
    assertThat(configs.get(0).get("total").get("cycles").get("mean").asDouble())
        .isGreaterThan(configs.get(1).get("total").get("cycles").get("mean").asDouble());
  }

  @Test
  void run_withAnUnknownParam_failsNamingItAndTheNearestKnownName() {
    int exit =
        run("demo", "SM90_H100:1", "--param=-gpgpu_n_cluster=66", "--data-dir", dataDir.toString());

    assertThat(exit).as("a refused request is a usage error").isEqualTo(2);
    assertThat(err.toString())
        .contains("does not set -gpgpu_n_cluster")
        .contains("did you mean \"-gpgpu_n_clusters\"");
  }

  @Test
  void run_demo_printsLiveProgressThenATable() {
    int exit = run("demo", "SM90_H100:1", "--data-dir", dataDir.toString(), "--plain");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("SM90_H100 #0")
        .contains("5/5")
        .contains("Whole trace, per GPU config:")
        .containsPattern("SM90_H100\\s+1\\s+\\d+");
  }

  @Test
  void run_demo_printsTheReadmesWholeTraceTableByteForByte() throws Exception {
    List<String> readme =
        Files.readAllLines(Path.of("").toAbsolutePath().getParent().resolve("README.md"));
    int from = readme.indexOf("Whole trace, per GPU config:");
    assertThat(from).as("the README shows the demo's table").isNotNegative();
    List<String> table = readme.subList(from, from + 4); // the heading, the header, two configs

    int exit =
        run("demo", "SM90_H100:2", "SM90_H200:1", "--data-dir", dataDir.toString(), "--plain");

    assertThat(exit).as(err.toString()).isZero();
    List<String> printed = out.toString().lines().toList();
    int at = printed.indexOf(table.getFirst());
    assertThat(at).as(out.toString()).isNotNegative();
    assertThat(printed.subList(at, at + table.size())).containsExactlyElementsOf(table);
  }

  @Test
  void run_aRealTraceFolder_runsOnItsOwnArchitecture() throws Exception {
    Path gemm = FIXTURES.resolve("accelsim/real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(
        Files.isDirectory(gemm),
        "needs the fixture "
            + gemm
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit = run(gemm.toString(), "SM80_A100:1", "--data-dir", dataDir.toString(), "--json");

    assertThat(exit).as(err.toString()).isZero();
    JsonNode result = new ObjectMapper().readTree(out.toString());
    assertThat(result.get("kernel_count").asInt()).isEqualTo(8);
    assertThat(result.get("configs").get(0).get("kernels")).hasSize(8);
  }

  @Test
  void run_aTraceFolderAsJson_pointsToNoServerThatWillNotHaveTheRun() throws Exception {
    Path gemm = FIXTURES.resolve("accelsim/real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(Files.isDirectory(gemm), "fixtures not present");

    int exit = run(gemm.toString(), "SM80_A100:1", "--json"); // a temporary data dir

    assertThat(exit).as(err.toString()).isZero();
    assertThat(err.toString()).contains("succeeded").doesNotContain("cascade runs results");
    assertThat(new ObjectMapper().readTree(out.toString()).get("state").asText())
        .isEqualTo("succeeded");
  }

  /** The real A100 gemm trace as a bare folder with an Nsight Compute CSV in hardware/. */
  private Path gemmFolderWithAnNcuCsv() throws Exception {
    Path gemm = FIXTURES.resolve("accelsim/real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(Files.isDirectory(gemm), "fixtures not present");
    Path folder = Files.createDirectories(dataDir.resolve("upload/gemm"));
    Files.copy(gemm.resolve("kernelslist.g"), folder.resolve("kernelslist.g"));
    for (int k = 1; k <= 8; k++) {
      Files.copy(
          gemm.resolve("kernel-" + k + ".traceg.xz"), folder.resolve("kernel-" + k + ".traceg.xz"));
    }
    // The tracer's stats name each kernel; ncu --print-kernel-base mangled names them the same.
    List<String> names =
        Files.readAllLines(gemm.resolve("stats.csv")).stream()
            .skip(1)
            .limit(8) // the eight kernelslist.g launches; the stats list two more
            .map(line -> line.split(",")[1].strip())
            .toList();
    StringBuilder ncu =
        new StringBuilder(
            "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\",\"gpu__time_duration.sum\"\n"
                + "\"\",\"\",\"cycle\",\"usecond\"\n");
    for (int k = 0; k < names.size(); k++) {
      ncu.append(
          String.format(
              java.util.Locale.ROOT,
              "\"%d\",\"%s\",\"%d\",\"%.2f\"%n",
              k,
              names.get(k),
              3000 + 1000 * k,
              2.0 + k));
    }
    Files.createDirectories(folder.resolve("hardware"));
    Files.writeString(folder.resolve("hardware/ncu.csv"), ncu);

    return folder;
  }

  @Test
  void run_aTraceFolderWithAnNcuCsvAsJson_carriesTheHardwareCorrelationTheTextPrints()
      throws Exception {
    Path folder = gemmFolderWithAnNcuCsv();

    int exit =
        run(
            folder.toString(),
            "SM80_A100:2",
            "--data-dir",
            dataDir.resolve("data").toString(),
            "--json");

    assertThat(exit).as(err.toString()).isZero();
    JsonNode hardware = new ObjectMapper().readTree(out.toString()).path("hardware");
    assertThat(hardware.path("source").asText()).as(out::toString).isEqualTo("hardware/ncu.csv");
    assertThat(hardware.path("measured_kernels").asInt()).isEqualTo(8);
    assertThat(hardware.path("trace_arch").asText()).isEqualTo("sm_80");
    JsonNode config = hardware.path("configs").path(0);
    assertThat(config.path("gpu_config").asText()).isEqualTo("SM80_A100");
    assertThat(config.path("cycles").path("mean_abs_error_pct").isNumber())
        .as(config::toString)
        .isTrue();
    assertThat(config.path("kernels")).hasSize(8);
  }

  @Test
  void run_withoutASpeed_saysTheEmulatorsPaceAsGettingStartedShowsIt() throws Exception {
    RunCommand command = new RunCommand();
    command.environment = Map.of(); // the pace a new user gets
    CommandLine commandLine = new CommandLine(command);
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));

    int exit =
        commandLine.execute(
            "demo", "SM90_H100:1", "--kernels", "1", "--data-dir", dataDir.toString(), "--plain");

    assertThat(exit).as(err.toString()).isZero();
    String first =
        out.toString()
            .lines()
            .filter(line -> line.startsWith("Running trace"))
            .findFirst()
            .orElseThrow();
    String with = first.substring(first.indexOf(" with ") + 1);
    assertThat(with)
        .startsWith("with the emulator at " + dev.cascade.core.SimCommands.DEMO_SPEED + " ")
        .contains("CASCADE_EMULATE_SPEED=0");
    String gettingStarted =
        Files.readString(Path.of("").toAbsolutePath().resolveSibling("docs/getting-started.md"));
    assertThat(gettingStarted)
        .contains(
            "Running trace demo (5 kernels) on [SM90_H100 x2," + " SM90_H200 x1] " + with + "\n");
  }

  @Test
  void run_demoAsJson_saysItHasNoHardwareNumbers() throws Exception {
    int exit = run("demo", "SM90_H100:1", "--data-dir", dataDir.toString(), "--json");

    assertThat(exit).as(err.toString()).isZero();
    JsonNode document = new ObjectMapper().readTree(out.toString());
    assertThat(document.has("hardware")).as(out::toString).isTrue();
    assertThat(document.get("hardware").isNull()).as(out::toString).isTrue();
  }

  @Test
  void run_aTraceFolderWithAnNcuCsv_printsSpeedupsReadableNamesAndTheHardwareComparison()
      throws Exception {
    Path folder = gemmFolderWithAnNcuCsv();

    int exit =
        run(
            folder.toString(),
            "SM80_A100:2",
            "--baseline",
            "SM80_A100",
            "--data-dir",
            dataDir.resolve("data").toString(),
            "--plain");

    assertThat(exit).as(err.toString()).isZero();
    String text = out.toString();
    assertThat(text)
        .contains("speedups against SM80_A100")
        .containsPattern("SM80_A100\\s+2\\s+\\d+.*baseline\\s+baseline")
        .contains("Against the hardware (hardware/ncu.csv: 8 kernel launches measured on sm_80)")
        .containsPattern("SM80_A100  cycles: correlation -?[0-9.]+, MAE [0-9.]+%, aggregate error")
        .doesNotContain("note: 8 of 8 pairs have different names");
    if (dev.cascade.core.KernelNames.system().canDemangle()) {
      assertThat(text).contains("at::native::vectorized_elementwise_kernel<…>");
    }
  }

  @Test
  void run_anUnknownTrace_failsNamingIt() {
    int exit = run("nope", "SM90_H100:1", "--data-dir", dataDir.toString());

    assertThat(exit).isEqualTo(2); // NOT_FOUND of what the user named: usage, as a bad config
    assertThat(err.toString()).startsWith("cascade: ").contains("no trace \"nope\"");
  }

  @Test
  void run_aConfigOfAnotherArchitecture_failsNamingTheConfig() {
    int exit = run("demo", "SM80_A100:1", "--data-dir", dataDir.toString());

    assertThat(exit).isEqualTo(2); // INVALID: a usage error, as from `runs create`
    assertThat(err.toString()).contains("SM80_A100").contains("sm_80").contains("sm_90");
  }

  @Test
  void run_aMalformedEntry_isAUsageError() {
    assertThat(run("demo", "SM90_H100:many", "--data-dir", dataDir.toString())).isEqualTo(2);
  }

  @Test
  void run_withOneSlotAndATimeLimit_runsTheSimsInTurnAndSucceeds() {
    int exit =
        run(
            "demo",
            "SM90_H100:2",
            "--data-dir",
            dataDir.toString(),
            "--plain",
            "--local-slots",
            "1",
            "--time-limit",
            "10m");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).contains("SM90_H100 #1").contains("Whole trace, per GPU config:");
  }

  @Test
  void run_badSlotsOrTimeLimit_isAUsageErrorNamingTheOption() {
    assertThat(run("demo", "SM90_H100:1", "--data-dir", dataDir.toString(), "--local-slots", "0"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--local-slots must be 1 to 1024 sims at once; got 0");
    assertThat(run("demo", "SM90_H100:1", "--data-dir", dataDir.toString(), "--time-limit", "x"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--time-limit must be a duration").contains("\"x\"");
  }

  @Test
  void run_aCountOutOfRange_isAUsageErrorInWordsBeforeAnythingStarts() {
    for (String entry : List.of("SM90_H100:0", "SM90_H100:65")) {
      err.getBuffer().setLength(0);

      int exit = run("demo", entry, "--data-dir", dataDir.toString());

      assertThat(exit).as(entry).isEqualTo(2);
      String count = entry.substring(entry.indexOf(':') + 1);
      assertThat(err.toString())
          .isEqualTo(
              "cascade: count for \"SM90_H100\" must be a whole number from 1 to 64; got "
                  + count
                  + System.lineSeparator());
    }
    assertThat(out.toString()).doesNotContain("Waiting").doesNotContain("Running");
  }

  @Test
  void run_anUnknownOption_saysUnknownOptionNotMissingParameter() {
    CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));

    int exit = commandLine.execute("run", "demo", "--frobnicate");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("cascade run: Unknown option: '--frobnicate'")
        .doesNotContain("Missing required parameter")
        .doesNotContain("Usage:");
  }

  @Test
  void run_aPathThatIsNoFolder_saysTheFolderDoesNotExist() {
    int exit = run("/tmp/does-not-exist-" + dataDir.getFileName(), "SM90_H100:1");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .contains("there is no folder \"/tmp/does-not-exist-")
        .doesNotContain("no trace \"");
  }

  @Test
  void run_aConfigWithoutACount_runsOneAsTheHelpSays() {
    int exit = run("demo", "SM90_H100", "--data-dir", dataDir.toString(), "--plain");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("on [SM90_H100 x1]")
        .contains("1 sim (SM90_H100 x1)")
        .doesNotContain("1 sims");
    StringWriter help = new StringWriter();
    CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.setOut(new PrintWriter(help));
    commandLine.execute("run", "--help");
    assertThat(help.toString()).contains("CONFIG[:COUNT]").contains("a bare SM90_H100 runs 1");
  }

  @Test
  void serve_seedsANewDataDirAnswersAndStops() throws Exception {
    ServeCommand serve = new ServeCommand();
    serve.environment = FAST;
    CommandLine commandLine = new CommandLine(serve);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit =
          thread.submit(
              () ->
                  commandLine.execute(
                      "--data-dir",
                      dataDir.toString(),
                      "--port",
                      "0",
                      "--no-s3",
                      "--local-slots",
                      "3"));
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> serve.server != null || exit.isDone());
      assertThat(serve.server).as(err.toString()).isNotNull();
      HttpResponse<String> traces =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(serve.server.url() + "/api/traces")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(traces.statusCode()).isEqualTo(200);
      assertThat(traces.body()).contains("\"demo\"").contains("\"sample-llama-mlp\"");
      // getting-started shows `cascade traces list` on a new data dir once its traces settled
      // (processing adds files, so a size read at once can be smaller): the sizes are these.
      String gettingStarted =
          Files.readString(Path.of("").toAbsolutePath().resolveSibling("docs/getting-started.md"));
      String tracesUrl = serve.server.url() + "/api/traces";
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                String body =
                    HttpClient.newHttpClient()
                        .send(
                            HttpRequest.newBuilder(URI.create(tracesUrl)).build(),
                            HttpResponse.BodyHandlers.ofString())
                        .body();
                JsonNode listed = new ObjectMapper().readTree(body).path("traces");
                assertThat(listed).hasSize(2);
                for (JsonNode trace : listed) {
                  String size = Formats.size(trace.path("size_bytes").asLong());
                  assertThat(gettingStarted)
                      .as(trace.path("id").asText() + " is " + size)
                      .containsPattern(
                          "\n" + trace.path("id").asText() + " +ready .* " + size + "  ");
                }
              });
      assertThat(out.toString())
          .contains("Cascade is running: open http://127.0.0.1:")
          .contains("slots      3 sims at once");

      serve.stop.countDown();

      assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
    } finally {
      serve.stop.countDown();
      thread.shutdownNow();
    }
  }
}
