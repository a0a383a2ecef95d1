package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.cli.CliTestServer.WatchedOutput;
import dev.cascade.core.Run;
import dev.cascade.core.RunState;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade runs create|list|show|watch|cancel|results} against a real server, whose sims the
 * test plays through the core API.
 */
final class RunsCommandIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NL = System.lineSeparator();

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

  // ------------------------------------------------------------------ create

  @Test
  void create_printsTheRunAndTheServerLaunchesItsSims() throws Exception {
    Result result = cascade.run("runs", "create", "demo", "SM90_H100:2", "SM90_H200:1");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .matches(
            "Created run r_\\w{26} on trace demo: 3 sims \\(SM90_H100 x2, SM90_H200 x1\\)"
                + NL
                + "Watch it with: cascade runs watch r_\\w{26}"
                + NL);
    assertThat(cascade.nextLaunchesByName(3))
        .containsOnlyKeys("SM90_H100#0", "SM90_H100#1", "SM90_H200#0");
  }

  @Test
  void create_json_printsTheRunAsTheApiShowsIt() throws Exception {
    Result result = cascade.run("runs", "create", "demo", "SM90_H100:2", "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode run = JSON.readTree(result.out());
    assertThat(run.get("id").asText()).startsWith("r_");
    assertThat(run.get("trace_id").asText()).isEqualTo("demo");
    assertThat(run.get("state").asText()).isEqualTo("active");
    assertThat(run.get("entries").get(0).get("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(run.get("entries").get(0).get("count").asInt()).isEqualTo(2);
    assertThat(run.get("sims")).hasSize(2);
    assertThat(run.get("sims").get(0).has("heartbeat_age_s")).isTrue();
  }

  @Test
  void create_sendsTheOwnerThePriorityAndTheTimeLimit() throws Exception {
    Result result =
        cascade.run(
            "runs",
            "create",
            "demo",
            "SM90_H100:1",
            "--owner",
            "bob",
            "--priority",
            "3",
            "--time-limit",
            "90m",
            "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode run = JSON.readTree(result.out());
    assertThat(run.get("owner").asText()).isEqualTo("bob");
    assertThat(run.get("priority").asInt()).isEqualTo(3);
    assertThat(run.get("entries").get(0).get("time_limit").asText()).isEqualTo("1h30m");
    Run stored = cascade.engine.runs().get(run.get("id").asText());
    assertThat(stored.entries().getFirst().timeLimit()).isEqualTo(Duration.ofMinutes(90));
  }

  @Test
  void create_badTimeLimitOrOwner_isAUsageErrorNamingTheOptionAndValue() {
    Result limit = cascade.run("runs", "create", "demo", "SM90_H100:1", "--time-limit", "soon");
    Result owner = cascade.run("runs", "create", "demo", "SM90_H100:1", "--owner", "a b");

    assertThat(limit.exit()).isEqualTo(2);
    assertThat(limit.err())
        .startsWith("cascade: --time-limit must be a duration")
        .contains("\"soon\"");
    assertThat(owner.exit()).isEqualTo(2);
    assertThat(owner.err()).startsWith("cascade: --owner must be").contains("\"a b\"");
    assertThat(cascade.engine.runs().list()).isEmpty();
  }

  @Test
  void create_aContextTheTraceHasNot_isAUsageErrorNamingItAndTheTracesContexts() throws Exception {
    Result unknown =
        cascade.run("runs", "create", "demo", "SM90_H100:1", "--context", "kernelslist_ctx_0x9");
    Result malformed = cascade.run("runs", "create", "demo", "SM90_H100:1", "--context", "../x");

    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err())
        .startsWith("cascade: trace \"demo\" has no CUDA context \"kernelslist_ctx_0x9\"")
        .contains("its contexts: kernelslist");
    assertThat(malformed.exit()).isEqualTo(2);
    assertThat(malformed.err()).startsWith("cascade: --context must name").contains("\"../x\"");
    assertThat(cascade.engine.runs().list()).isEmpty();

    Result first =
        cascade.run("runs", "create", "demo", "SM90_H100:1", "--context", "kernelslist", "--json");
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(JSON.readTree(first.out()).get("entries").get(0).get("context").asText())
        .isEqualTo("kernelslist");
  }

  @Test
  void create_countAbove64_failsWithOneLineNamingTheField() {
    Result result = cascade.run("runs", "create", "demo", "SM90_H100:1", "SM90_H200:65");

    assertThat(result.exit()).isEqualTo(2); // the API's 422, INVALID: a usage error
    assertThat(result.err())
        .startsWith("cascade: count for \"SM90_H200\" must be a whole number from 1 to 64; got 65")
        .doesNotContain("entries[")
        .endsWith(NL)
        .hasLineCount(1);
    assertThat(cascade.engine.runs().list()).isEmpty();
  }

  @Test
  void create_configOfAnotherArchitecture_namesTheEntry() {
    Result result = cascade.run("runs", "create", "demo", "SM7_QV100:1");

    assertThat(result.exit()).isEqualTo(2); // the API's 422, INVALID: a usage error
    assertThat(result.err()).startsWith("cascade: GPU config \"SM7_QV100\" is sm_70");
  }

  @Test
  void create_unknownTrace_namesTraceId() {
    Result result = cascade.run("runs", "create", "nope", "SM90_H100:1");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).startsWith("cascade: there is no trace \"nope\"");
  }

  @Test
  void create_sampleTrace_isRefused() {
    Result result = cascade.run("runs", "create", "sample", "SM90_H100:1");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .startsWith("cascade: ")
        .contains("is a sample")
        .doesNotContain("trace_id");
  }

  @Test
  void create_malformedConfigCount_isAUsageErrorBeforeAnyRequest() {
    cascade.environment.put("CASCADE_URL", "http://127.0.0.1:1"); // never asked

    Result result = cascade.run("runs", "create", "demo", "SM90_H100:two");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .contains("the count in \"SM90_H100:two\" must be a whole number")
        .doesNotContain("cannot reach");
  }

  @Test
  void create_withoutEntries_isAUsageError() {
    Result result = cascade.run("runs", "create", "demo");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("CONFIG[:COUNT]");
  }

  @Test
  void create_watch_followsTheNewRunUntilItSucceeds() throws Exception {
    WatchedOutput out = new WatchedOutput();
    CompletableFuture<Result> watching =
        CompletableFuture.supplyAsync(
            () -> cascade.run(out, "runs", "create", "demo", "SM90_H100:1", "--watch", "--plain"));
    SimLaunch sim = cascade.nextLaunch();
    out.await("Watching run");

    cascade.succeed(sim);

    Result result = watching.get(CliTestServer.WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.exit()).as(result.out() + result.err()).isZero();
    assertThat(result.out())
        .startsWith("Created run r_")
        .contains("SM90_H100 #0  [##########] 3/3  succeeded")
        .contains(" succeeded: 1 succeeded");
  }

  // ------------------------------------------------------------------ list, show

  @Test
  void list_showsEveryRunNewestFirst() throws Exception {
    String first = create("SM90_H100:1");
    String second = create("SM90_H100:2", "SM90_H200:1");
    cascade.nextLaunches(4);

    Result result = cascade.run("runs", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .containsPattern(
            "ID\\s+TRACE\\s+STATE\\s+OWNER\\s+SIMS\\s+ENTRIES\\s+SIMS BY STATE\\s+KERNELS\\s+AGE")
        .containsPattern(
            second + "\\s+demo\\s+active\\s+\\S+\\s+3\\s+SM90_H100 x2, SM90_H200 x1\\s+")
        .containsPattern(first + "\\s+demo\\s+active\\s+\\S+\\s+1\\s+SM90_H100 x1\\s+");
    assertThat(result.out().indexOf(second)).isLessThan(result.out().indexOf(first));
  }

  @Test
  void list_json_isTheApiShape() throws Exception {
    String id = create("SM90_H100:2");
    cascade.nextLaunches(2);

    Result result = cascade.run("runs", "list", "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode runs = JSON.readTree(result.out()).get("runs");
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).get("id").asText()).isEqualTo(id);
    assertThat(runs.get(0).get("sim_count").asInt()).isEqualTo(2);
    assertThat(runs.get(0).has("sims_by_state")).isTrue();
    assertThat(runs.get(0).has("sims")).isFalse();
  }

  @Test
  void list_withNoRuns_saysHowToStartOne() {
    Result result = cascade.run("runs", "list");

    assertThat(result.exit()).isZero();
    assertThat(result.out()).startsWith("No runs on " + cascade.server.url());
  }

  @Test
  void show_givesEachSimsStateProgressCurrentKernelAndHeartbeat() throws Exception {
    String id = create("SM90_H100:2");
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(2);
    cascade.finishKernel(sims.get("SM90_H100#0"), 1);
    cascade.fail(sims.get("SM90_H100#1"), "deadlock detected");

    Result result = cascade.run("runs", "show", id);

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith("Run " + id + " on trace demo: active" + NL)
        .containsPattern("entries\\s+SM90_H100 x2")
        .containsPattern("sims\\s+2: (running 1, failed 1|failed 1, running 1)")
        .containsPattern(
            "CONFIG\\s+REPLICA\\s+STATE\\s+KERNELS\\s+CURRENT\\s+HEARTBEAT\\s+SIM\\s+ERROR")
        .containsPattern(
            "SM90_H100\\s+0\\s+running\\s+1/3\\s+kernel_1\\s+\\d+\\.\\ds ago\\s+s_\\w+")
        .containsPattern(
            "SM90_H100\\s+1\\s+failed\\s+0/3\\s+-\\s+\\S+ ago\\s+s_\\w+\\s+deadlock: deadlock"
                + " detected");
  }

  @Test
  void show_ofASucceededRun_givesItsSimulationSpeed() throws Exception {
    String id = create("SM90_H100:1");
    cascade.succeed(cascade.nextLaunch());

    // The run ends on the sim's exit; its log's last figures are parsed a moment later.
    Awaitility.await()
        .atMost(CliTestServer.WAIT)
        .untilAsserted(
            () ->
                assertThat(cascade.run("runs", "show", id).out())
                    .contains(
                        NL
                            + NL
                            + "Simulation speed (KIPS: thousands of simulated thread instructions"
                            + " per wall second, median over succeeded sims):"
                            + NL
                            + "  SM90_H100  4.0 KIPS (1 sim) on Accel-Sim [build"
                            + " accelsim-commit-test]"));
  }

  @Test
  void show_json_isTheApiShape() throws Exception {
    String id = create("SM90_H100:1");
    SimLaunch sim = cascade.nextLaunch();
    cascade.finishKernel(sim, 1);

    Result result = cascade.run("runs", "show", id, "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode run = JSON.readTree(result.out());
    assertThat(run.get("id").asText()).isEqualTo(id);
    JsonNode shown = run.get("sims").get(0);
    assertThat(shown.get("id").asText()).isEqualTo(sim.simId());
    assertThat(shown.get("state").asText()).isEqualTo("running");
    assertThat(shown.get("kernels_done").asInt()).isEqualTo(1);
    assertThat(shown.get("kernels_total").asInt()).isEqualTo(3);
    assertThat(shown.get("heartbeat_age_s").isNumber()).isTrue();
  }

  @Test
  void show_unknownRun_failsWithTheServersMessage() {
    Result result = cascade.run("runs", "show", "r_01JD3N8X5S2Q7W4K9M6T1V0BZC");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).startsWith("cascade: ").contains("r_01JD3N8X5S2Q7W4K9M6T1V0BZC");
  }

  @Test
  void show_somethingThatCannotBeARunId_isAUsageError() {
    Result result = cascade.run("runs", "show", "../traces");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("\"../traces\" is not a run id");
  }

  // ------------------------------------------------------------------ watch

  @Test
  void watch_showsProgressLiveAndEndsWhenTheRunSucceeds() throws Exception {
    String id = create("SM90_H100:2");
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(2);
    SimLaunch first = sims.get("SM90_H100#0");
    SimLaunch second = sims.get("SM90_H100#1");
    WatchedOutput out = new WatchedOutput();
    CompletableFuture<Result> watching =
        CompletableFuture.supplyAsync(() -> cascade.run(out, "runs", "watch", id, "--plain"));
    out.await(
        "Watching run "
            + id
            + " on trace demo: 2 sims (SM90_H100 x2); Ctrl-C stops watching, the run goes on:"
            + " cascade runs watch "
            + id
            + " picks it up again");

    cascade.heartbeat(first);
    out.await("SM90_H100 #0  [..........] 0/3  running");
    cascade.finishKernel(first, 1);
    // The speed is the simulator's own rate, 4000 inst/sec in the test's blocks; then the kernel's
    // wall time, from the sim's launch for the first.
    out.await("SM90_H100 #0  [###.......] 1/3  running    4.0 KIPS  last kernel ");
    cascade.finishKernel(first, 2);
    out.await("SM90_H100 #0  [######....] 2/3  running");
    cascade.succeed(first);
    out.await("SM90_H100 #0  [##########] 3/3  succeeded");
    cascade.succeed(second);

    Result result = watching.get(CliTestServer.WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.exit()).as(result.out() + result.err()).isZero();
    assertThat(result.out())
        .contains("SM90_H100 #1  [##########] 3/3  succeeded")
        .endsWith(
            "Run "
                + id
                + " succeeded: 2 succeeded"
                + NL
                + "Compare the configs with: cascade runs results "
                + id
                + NL);
    assertThat(lines(result.out(), "SM90_H100 #0  [###.......] 1/3  running")).hasSize(1);
  }

  @Test
  void watch_runWithAFailedSim_endsWithExit1AndTheError() throws Exception {
    String id = create("SM90_H100:1", "SM90_H200:1");
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(2);
    WatchedOutput out = new WatchedOutput();
    CompletableFuture<Result> watching =
        CompletableFuture.supplyAsync(() -> cascade.run(out, "runs", "watch", id, "--plain"));
    out.await("Watching run");

    cascade.succeed(sims.get("SM90_H100#0"));
    cascade.fail(sims.get("SM90_H200#0"), "deadlock detected");

    Result result = watching.get(CliTestServer.WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out())
        .contains("SM90_H200 #0  [..........] 0/3  failed     deadlock: deadlock detected")
        .contains("Run " + id + " partial: 1 succeeded, 1 failed")
        .contains("  SM90_H200 #0 failed: deadlock: deadlock detected");
  }

  @Test
  void watch_finishedRun_printsTheOutcomeAtOnce() throws Exception {
    String id = create("SM90_H100:1");
    cascade.succeed(cascade.nextLaunch());
    Run run = cascade.engine.runs().await(id, CliTestServer.WAIT);
    assertThat(run.state()).isEqualTo(RunState.SUCCEEDED);
    // The run ends on the sim's exit; its log's last figures are parsed a moment later.
    String simId = run.sims().get(0).id();
    Awaitility.await()
        .atMost(CliTestServer.WAIT)
        .until(
            () ->
                cascade
                    .engine
                    .runs()
                    .sim(simId)
                    .progress()
                    .latestMetrics()
                    .containsKey("gpgpu_simulation_rate"));

    Result result = cascade.run("runs", "watch", id, "--plain");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "Watching run "
                + id
                + " on trace demo: 1 sim (SM90_H100 x1)"
                + NL
                + "  SM90_H100 #0  [##########] 3/3  succeeded  4.0 KIPS"
                + NL
                + "Run "
                + id
                + " succeeded: 1 succeeded"
                + NL
                + "Compare the configs with: cascade runs results "
                + id
                + NL);
  }

  @Test
  void watch_cancelledRun_endsWithExit1() throws Exception {
    String id = create("SM90_H100:2");
    cascade.nextLaunches(2);
    WatchedOutput out = new WatchedOutput();
    CompletableFuture<Result> watching =
        CompletableFuture.supplyAsync(() -> cascade.run(out, "runs", "watch", id, "--plain"));
    out.await("Watching run");

    Result cancel = cascade.run("runs", "cancel", id);

    assertThat(cancel.exit()).as(cancel.err()).isZero();
    Result result = watching.get(CliTestServer.WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).contains("Run " + id + " cancelled: 2 cancelled");
  }

  @Test
  void results_ofACancelledRun_sayItIsFinishedNotThatResultsAreToCome() throws Exception {
    String id = create("SM90_H100:2");
    cascade.nextLaunches(2);
    assertThat(cascade.run("runs", "cancel", id).exit()).isZero();

    Result result = cascade.run("runs", "results", id);

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .contains("no kernel results: no replica of it succeeded (the run is cancelled)")
        .doesNotContain("yet");
  }

  // ------------------------------------------------------------------ cancel

  @Test
  void cancel_cancelsUnfinishedSimsAndKeepsFinishedOnes_twiceIsHarmless() throws Exception {
    String id = create("SM90_H100:2");
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(2);
    cascade.succeed(sims.get("SM90_H100#0"));

    Result result = cascade.run("runs", "cancel", id);

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .isEqualTo("Cancelled run " + id + ": it is partial (sims: succeeded 1, cancelled 1)" + NL);
    Result again = cascade.run("runs", "cancel", id, "--json");
    assertThat(again.exit()).isZero();
    assertThat(JSON.readTree(again.out()).get("state").asText()).isEqualTo("partial");
  }

  // ------------------------------------------------------------------ results

  @Test
  void results_table_comparesConfigsPerKernelAndInTotal() throws Exception {
    String id = finishedRun();

    Result result = cascade.run("runs", "results", id);

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith("Results of run " + id + " on trace demo (succeeded)")
        .contains("speedups against SM90_H100")
        .containsPattern(
            "CONFIG\\s+N\\s+CYCLES\\s+THREAD INSN \\(SIM\\)\\s+IPC\\s+SIM TIME \\(us\\)"
                + "\\s+SPEEDUP \\(CYCLES\\)\\s+SPEEDUP \\(TIME\\)")
        .containsPattern(
            "SM90_H100\\s+2\\s+6015 ± 21.2 \\[6000..6030\\]\\s+24000 \\(all 2 agree\\)\\s.*"
                + "baseline\\s+baseline")
        // 6000 cycles lies inside the baseline's 6000..6030: not ranked.
        .containsPattern(
            "SM90_H200\\s+1\\s+6000\\s+24000\\s+.*1.00x same within spread\\s+1.00x same within"
                + " spread")
        .contains("SM90_H100  sm_90, 1980 MHz: 2 of 2 replicas succeeded")
        .containsPattern(
            "kernel_1\\s+2\\s+1005 ± 7.1 \\[1000..1010\\]\\s+4000 \\(all 2 agree\\)"
                + "\\s+3.980 ± 0.028 \\[3.960..4.000\\]\\s+0.508 ± 0.004 \\[0.505..0.510\\]")
        .containsPattern("kernel_3\\s+2\\s+3005 ± 7.1 \\[3000..3010\\]")
        .containsPattern("total\\s+2\\s+6015 ± 21.2 \\[6000..6030\\]");
  }

  @Test
  void results_csv_isTheApisCsv() throws Exception {
    String id = finishedRun();

    Result result = cascade.run("runs", "results", id, "--csv");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo(cascade.engine.results().csv(id));
    List<String> rows = result.out().lines().toList();
    assertThat(rows.get(0)).startsWith("gpu_config,arch,clock_mhz,replicas,succeeded,row,kernel,");
    assertThat(rows.get(1)).startsWith("SM90_H100,sm_90,1980");
    assertThat(rows.get(1)).contains(",kernel,kernel_1,kernel_1,0,2,1005,");
    assertThat(rows.get(1)).endsWith(",SM90_H100,1,same_within_spread,1,same_within_spread");
    assertThat(rows).hasSize(1 + 4 + 4);
  }

  @Test
  void results_json_isTheApiShape() throws Exception {
    String id = finishedRun();

    Result result = cascade.run("runs", "results", id, "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode results = JSON.readTree(result.out());
    assertThat(results.get("run_id").asText()).isEqualTo(id);
    JsonNode h100 = results.get("configs").get(0);
    assertThat(h100.get("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(h100.get("kernels").get(0).get("cycles").get("mean").asDouble()).isEqualTo(1005.0);
    assertThat(h100.get("total").get("cycles").get("max").asDouble()).isEqualTo(6030.0);
  }

  @Test
  void results_csvAndJsonTogether_isAUsageError() {
    Result result =
        cascade.run("runs", "results", "r_01JD3N8X5S2Q7W4K9M6T1V0BZC", "--csv", "--json");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("mutually exclusive");
  }

  // ------------------------------------------------------------------ reaching the server

  @Test
  void anyCommand_whenNothingListensAtCascadeUrl_saysHowToStartCascade() {
    cascade.environment.put("CASCADE_URL", "http://127.0.0.1:1");

    Result result = cascade.run("runs", "list");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "cascade: cannot reach Cascade at http://127.0.0.1:1 (connection refused); start it"
                + " with ./cascade serve or set CASCADE_URL"
                + NL);
  }

  @Test
  void anyCommand_withAUrlThatIsNotOne_isAUsageError() {
    cascade.environment.put("CASCADE_URL", "localhost:8080");

    Result result = cascade.run("runs", "list");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("CASCADE_URL \"localhost:8080\" is not the URL");
  }

  @Test
  void aServerWithAToken_refusesWithoutIt_andAnswersWithCascadeToken() {
    try (HttpApi guarded =
        HttpApi.start(cascade.engine, ServerSettings.defaults().withPort(0).withToken("s3cret"))) {
      cascade.environment.put("CASCADE_URL", guarded.url());

      Result refused = cascade.run("runs", "list");
      assertThat(refused.exit()).isEqualTo(1);
      assertThat(refused.err())
          .startsWith("cascade: this endpoint needs the server's token")
          .contains("CASCADE_TOKEN");

      cascade.environment.put("CASCADE_TOKEN", "wrong");
      Result wrong = cascade.run("runs", "list");
      assertThat(wrong.exit()).isEqualTo(1);
      assertThat(wrong.err()).contains("not this server's token");

      cascade.environment.put("CASCADE_TOKEN", "s3cret");
      Result listed = cascade.run("runs", "list");
      assertThat(listed.exit()).as(listed.err()).isZero();
    }
  }

  // ------------------------------------------------------------------ helpers

  /** Creates a run on {@code demo} through the command; returns its id. */
  private String create(String... entries) throws Exception {
    String[] args = new String[entries.length + 4];
    args[0] = "runs";
    args[1] = "create";
    args[2] = "demo";
    System.arraycopy(entries, 0, args, 3, entries.length);
    args[args.length - 1] = "--json";
    Result result = cascade.run(args);
    assertThat(result.exit()).as(result.err()).isZero();
    return JSON.readTree(result.out()).get("id").asText();
  }

  /** A succeeded run of SM90_H100 x2 and SM90_H200 x1. */
  private String finishedRun() throws Exception {
    String id = create("SM90_H100:2", "SM90_H200:1");
    for (SimLaunch sim : cascade.nextLaunches(3)) {
      cascade.succeed(sim);
    }
    assertThat(cascade.engine.runs().await(id, CliTestServer.WAIT).state())
        .isEqualTo(RunState.SUCCEEDED);
    return id;
  }

  private static List<String> lines(String text, String containing) {
    return text.lines().filter(line -> line.contains(containing)).toList();
  }
}
