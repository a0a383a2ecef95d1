package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The web UI in a real browser against a real server whose sims are sim agents running the
 * emulator: the trace list, the new-run form, a run followed live to the end, cancelling with the
 * confirm step, the runs list, the results charts, and the page at phone width. Screenshots go to
 * {@code target/ui-screenshots/} for people to look at.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class UiBrowserIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  private UiSession ui;
  private UiServer server;
  private String cancelledRunId;
  private Browser browser;

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    ui = UiSession.start(dir, null);
    server = ui.server();
    browser = ui.browser();
  }

  @AfterAll
  void stop() {
    if (ui != null) {
      ui.close();
    }
  }

  @BeforeEach
  void laptopWidth() {
    browser.size(1280, 900);
  }

  private String skippedReason(String folder) {
    return server.cascade().traces().skippedFolders().stream()
        .filter(skipped -> skipped.name().equals(folder))
        .findFirst()
        .orElseThrow()
        .reason();
  }

  private void open(String hash) {
    browser.open(server.url() + "/" + hash);
  }

  @Test
  @Order(1)
  void traceList_showsStateArchKernelsModelSizeAgeAndMarksSamples() {
    open("#/traces");

    WebElement demo = browser.waitFor("tr[data-id='demo']");
    assertThat(cell(demo, "State")).isEqualTo("ready");
    assertThat(cell(demo, "Arch")).isEqualTo("sm_90");
    assertThat(cell(demo, "Kernels")).isEqualTo("5");
    assertThat(cell(demo, "Model and layers"))
        .contains("facebook/opt-125m")
        .contains("model.decoder.layers.10.self_attn");
    assertThat(cell(demo, "Size")).matches("[0-9.]+ (B|KiB|MiB)");
    assertThat(cell(demo, "Age")).matches("just now|\\d+ (s|min) ago");
    assertThat(demo.findElements(By.linkText("New run"))).hasSize(1);

    WebElement sample = browser.find("tr[data-id='sample-llama-mlp']");
    assertThat(sample.findElement(By.cssSelector(".badge.sample")).getText()).isEqualTo("sample");
    assertThat(sample.getText()).contains("Sample: browse only").doesNotContain("New run");
    browser.screenshot("01-traces");

    sample.findElement(By.linkText("sample-llama-mlp")).click();
    WebElement kernels = browser.waitFor("table.kernels");
    assertThat(kernels.findElements(By.cssSelector("tbody tr"))).hasSize(3);
    assertThat(browser.find("main").getText())
        .contains("This is a sample: it can be browsed but never run.")
        .doesNotContain("New run");
    browser.screenshot("01-trace-sample");
  }

  @Test
  @Order(2)
  void traceList_followsAnUploadLiveAndShowsWhyATraceFailedOrAFolderWasSkipped()
      throws IOException {
    open("#/traces");
    browser.waitFor("tr[data-id='demo']");
    browser.js("window.__samePage = 'yes'");
    Path demoTraces = server.tracesFolder().resolve("demo/traces");
    Path upload = server.tracesFolder().resolve("live-upload");
    Files.createDirectories(upload.resolve("traces"));
    try (Stream<Path> files = Files.list(demoTraces)) {
      for (Path file : files.toList()) {
        Files.copy(file, upload.resolve("traces").resolve(file.getFileName()));
      }
    }
    Path broken = server.tracesFolder().resolve("broken-capture");
    Files.createDirectories(broken);
    Files.writeString(
        broken.resolve("metadata.json"),
        "{\"status\": \"failed\", \"error\": \"CUDA error: out of memory while tracing layer 10\"}");
    Files.createDirectories(server.tracesFolder().resolve("my trace/traces"));

    await()
        .atMost(Browser.WAIT)
        .ignoreExceptions()
        .until(() -> cell(browser.find("tr[data-id='live-upload']"), "State").equals("uploading"));
    await()
        .atMost(Browser.WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(browser.find("tr[data-id='broken-capture'] .reason").getText())
                    .isEqualTo("CUDA error: out of memory while tracing layer 10"));
    await()
        .atMost(Browser.WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(browser.find(".skipped-folders li[data-name='my trace']").getText())
                    .isEqualTo("my trace: " + skippedReason("my trace")));
    assertThat(browser.find(".skipped-folders").isDisplayed()).isTrue();
    browser.screenshot("02-traces-uploading-and-failed");

    Files.writeString(
        upload.resolve("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\", \"model_name\": \"live\"}");
    await()
        .atMost(Browser.WAIT)
        .ignoreExceptions()
        .until(() -> cell(browser.find("tr[data-id='live-upload']"), "State").equals("ready"));
    assertThat(browser.js("return window.__samePage")).isEqualTo("yes");
    assertThat(browser.find("tr[data-id='live-upload']").getText()).contains("New run");
  }

  @Test
  @Order(3)
  void launchFromTheForm_runsThreeSimsLiveAndChartsTheResults() throws IOException {
    server.speed(5000);
    open("#/traces/demo/new-run");

    WebElement launch = browser.waitFor("#launch");
    WebElement h100 = browser.find("tr[data-config='SM90_H100'] input[type=checkbox]");
    WebElement h200 = browser.find("tr[data-config='SM90_H200'] input[type=checkbox]");
    WebElement a100 = browser.find("tr[data-config='SM80_A100'] input[type=checkbox]");
    assertThat(h100.isSelected()).as("the trace's suggested config is preselected").isTrue();
    assertThat(h200.isSelected()).isFalse();
    assertThat(h200.isEnabled()).isTrue();
    assertThat(a100.isEnabled()).as("another architecture is disabled").isFalse();
    assertThat(browser.find("tr[data-config='SM80_A100'] .reason").getText())
        .contains("sm_80")
        .contains("sm_90");
    // Every built-in config of another architecture than the demo's sm_90 is refused.
    long otherArchitectures =
        GpuConfigCatalog.builtIn().list().stream().filter(c -> !c.arch().equals("sm_90")).count();
    assertThat(otherArchitectures).isGreaterThan(1);
    assertThat(browser.all("tbody.refused input[type=checkbox]"))
        .hasSize((int) otherArchitectures)
        .allSatisfy(box -> assertThat(box.isEnabled()).isFalse());
    assertThat(launch.getText()).isEqualTo("Launch 1 simulation");
    assertThat(
            browser.js(
                "return [...document.querySelectorAll('main input')].every(i => i.labels.length > 0)"))
        .as("every input has a label")
        .isEqualTo(true);

    WebElement h100Count = browser.find("tr[data-config='SM90_H100'] input.count");
    h100Count.sendKeys(Keys.chord(Keys.CONTROL, "a"), "2");
    assertThat(launch.getText()).isEqualTo("Launch 2 simulations");
    WebElement h200Count = browser.find("tr[data-config='SM90_H200'] input.count");
    assertThat(h200Count.isDisplayed()).as("an unchecked row shows no count").isFalse();
    assertThat(h200Count.isEnabled()).isFalse();
    h200.sendKeys(Keys.SPACE);
    assertThat(h200Count.isDisplayed()).as("checking a row shows its count").isTrue();
    assertThat(launch.getText()).isEqualTo("Launch 3 simulations");
    // The server's own note (GET /api/simulator): this test's sims run a command of its own.
    assertThat(browser.find("#pace-note").getText())
        .startsWith("Sims run the server's own command (CASCADE_SIM_CMD)");
    Object emulated =
        browser.asyncJs(
            """
            const done = arguments[arguments.length - 1];
            import('/ui/new-run.js').then((m) => done(m.paceText({runs: 'emulator',
              cycles_per_second: 4000, demo_sim_seconds: 13.5,
              note: 'The emulator simulates about 4,000 cycles per second.'}, 3)));
            """);
    assertThat(emulated)
        .isEqualTo(
            "The emulator simulates about 4,000 cycles per second. This run: 3 sims, about 41 s"
                + " of simulating for a trace the size of the demo, a few sims at a time.");
    browser.screenshot("03-new-run");

    launch.click();

    await().atMost(Browser.WAIT).until(() -> browser.hash().startsWith("#/runs/r_"));
    String runId = browser.hash().substring("#/runs/".length());
    await().atMost(Browser.WAIT).until(() -> browser.all("li.card").size() == 3);
    await()
        .atMost(RUN_WAIT)
        .ignoreExceptions()
        .until(
            () ->
                browser.all("li.card[data-state='running']").stream()
                    .anyMatch(card -> kernelsDone(card) >= 1));
    assertThat(browser.find(".live").getText()).isEqualTo("Live");
    browser.screenshot("04-run-live");
    WebElement tail =
        await()
            .atMost(RUN_WAIT)
            .ignoreExceptions()
            .until(
                () ->
                    browser.all("li.card .log-tail").stream()
                        .filter(t -> t.getText().contains("launching kernel name:"))
                        .findFirst()
                        .orElse(null),
                found -> found != null);
    assertThat(tail.getText())
        .as("the log tail shows what tells something")
        .doesNotContain("thread block =");

    await()
        .atMost(RUN_WAIT)
        .ignoreExceptions()
        .until(() -> browser.all("li.card[data-state='succeeded']").size() == 3);
    assertThat(browser.find(".run-state .badge").getText()).isEqualTo("succeeded");
    for (WebElement card : browser.all("li.card")) {
      assertThat(card.findElement(By.cssSelector(".kernels")).getText()).isEqualTo("Kernels 5 / 5");
      assertThat(card.findElement(By.cssSelector("progress")).getDomProperty("value"))
          .isEqualTo("5");
      assertThat(card.findElement(By.cssSelector(".metrics")).getText())
          .contains("Cycles")
          .contains("IPC")
          .containsPattern("Peak memory\\s+[0-9.]+ MiB") // the local sim's process tree
          .containsPattern("Wall time\\s+[0-9.]+ s"); // the last kernel's, timed by the agent
      assertThat(card.findElement(By.cssSelector(".log-tail")).getText())
          .contains("GPGPU-Sim")
          .contains("launching kernel name:")
          .contains("gpgpu_simulation_time")
          .doesNotContain("thread block =");
      assertThat(card.findElement(By.cssSelector("a.full-log")).getDomAttribute("href"))
          .startsWith("/api/sims/s_");
    }
    await().atMost(Browser.WAIT).until(() -> browser.find(".live").getText().equals("Finished"));
    // The run's speed per config; the first run of the trace has nothing earlier to compare.
    WebElement speed =
        await()
            .atMost(Browser.WAIT)
            .ignoreExceptions()
            .until(
                () -> browser.find("section.run-speed"),
                section -> section.getText().contains("SM90_H200"));
    assertThat(speed.getText())
        .contains("Simulation speed")
        .contains("thousands of simulated thread instructions per second of wall time")
        .containsPattern("SM90_H100\\s+[0-9.]+\\s+2\\s+No earlier succeeded sims")
        .containsPattern("SM90_H200\\s+[0-9.]+\\s+1\\s+No earlier succeeded sims");
    Object slower =
        browser.asyncJs(
            """
            const done = arguments[arguments.length - 1];
            import('/ui/run.js').then((m) => {
              const section = m.speedSection({run_id: 'r_1', trace_id: 'demo', configs: [
                {gpu_config: 'SM90_H100', kernels: null, sims: 2, median_kips: 210, simulators: ['b'],
                 earlier: [{simulator: 'a', sims: 3, median_kips: 300, min_kips: 290, max_kips: 310,
                            ratio: 0.7, verdict: 'slower'}]}]});
              done(section.querySelector('.speed-slower').textContent);
            });
            """);
    assertThat(slower).isEqualTo("0.70× slower");
    browser.fullScreenshot("05-run-succeeded");

    browser.find(".toolbar a[href$='/results']").click();
    await().atMost(Browser.WAIT).until(() -> browser.hash().equals("#/runs/" + runId + "/results"));
    await().atMost(Browser.WAIT).until(() -> browser.all("svg.chart").size() == 6);
    List<WebElement> cycles = browser.all("section[data-metric='cycles'] svg.chart");
    // Whole trace: a bar per config, a dot per replica.
    assertThat(cycles.get(0).findElements(By.cssSelector("rect.bar"))).hasSize(2);
    assertThat(cycles.get(0).findElements(By.cssSelector("circle.replica"))).hasSize(3);
    assertThat(cycles.get(0).findElements(By.cssSelector("line.whisker"))).hasSize(2);
    // Per kernel: 5 kernels times 2 configs.
    assertThat(cycles.get(1).findElements(By.cssSelector("rect.bar"))).hasSize(10);
    assertThat(cycles.get(1).findElements(By.cssSelector("circle.replica"))).hasSize(15);
    for (WebElement bar : browser.all("rect.bar")) {
      assertThat(Double.parseDouble(bar.getDomAttribute("width"))).isPositive();
    }
    browser.fullScreenshot("06-results");

    browser.find("input[name=scale][value=relative]").click();
    await()
        .atMost(Browser.WAIT)
        .until(
            () ->
                browser.all("svg.chart").stream()
                    .allMatch(chart -> chart.getDomAttribute("aria-label").contains("%")));
    assertThat(browser.all("svg.chart line.grid.zero")).hasSize(6);
    assertThat(
            browser
                .all("section[data-metric='ipc'] svg.chart")
                .get(1)
                .findElements(By.cssSelector("circle.replica")))
        .hasSize(15);
    WebElement csv = browser.find("#csv");
    assertThat(csv.getDomAttribute("href")).isEqualTo("/api/runs/" + runId + "/results.csv");
    String header =
        (String)
            browser.asyncJs(
                "const done = arguments[arguments.length - 1];"
                    + "fetch(arguments[0]).then(r => r.text()).then(t => done(t.split('\\r\\n')[0]));",
                csv.getDomAttribute("href"));
    assertThat(header).startsWith("gpu_config,arch,clock_mhz");
    assertThat(browser.find("#sims-csv").getDomAttribute("href"))
        .isEqualTo("/api/runs/" + runId + "/results/sims.csv");
    assertThat(browser.find("#get-stats-csv").getDomAttribute("href"))
        .isEqualTo("/api/runs/" + runId + "/results/get_stats.csv");
    String tidyHeader =
        (String)
            browser.asyncJs(
                "const done = arguments[arguments.length - 1];"
                    + "fetch(arguments[0]).then(r => r.text()).then(t => done(t.split('\\r\\n')[0]));",
                browser.find("#sims-csv").getDomAttribute("href"));
    assertThat(tidyHeader).startsWith("run_id,trace_id,gpu_config,replica,");
    browser.fullScreenshot("06-results-relative");
  }

  @Test
  @Order(4)
  void newRun_showsTheServersRefusalNextToTheFieldItNames() {
    open("#/traces/demo/new-run");
    WebElement count = browser.waitFor("tr[data-config='SM90_H100'] input.count");
    count.sendKeys(Keys.chord(Keys.CONTROL, "a"), "65");
    assertThat(browser.find("#launch").getText()).isEqualTo("Launch 65 simulations");

    browser.find("#launch").click();

    WebElement error = browser.waitFor("tr[data-config='SM90_H100'] .field-error:not([hidden])");
    assertThat(error.getText())
        .as("the words the command line shows too, not the field path")
        .isEqualTo("count for \"SM90_H100\" must be a whole number from 1 to 64; got 65");
    assertThat(count.getDomAttribute("aria-invalid")).isEqualTo("true");
    assertThat(browser.js("return document.activeElement === arguments[0]", count)).isEqualTo(true);
    assertThat(browser.hash()).isEqualTo("#/traces/demo/new-run");
    browser.screenshot("07-new-run-refused");
  }

  @Test
  @Order(4)
  void newRun_withSweptParameters_countsTheVariantsAndLaunchesThem() throws IOException {
    server.speed(0);
    open("#/traces/demo/new-run");
    WebElement params = browser.waitFor("#run-params");
    WebElement count = browser.find("tr[data-config='SM90_H100'] input.count");
    count.sendKeys(Keys.chord(Keys.CONTROL, "a"), "2");
    params.sendKeys("-gpgpu_n_clusters=66,132");
    assertThat(browser.find("#launch").getText()).isEqualTo("Launch 4 simulations (2 variants)");
    params.sendKeys(Keys.ENTER, "-gpgpu_n_cluster=66");
    browser.find("#launch").click();
    WebElement error = browser.waitFor("#params-error:not([hidden])");
    assertThat(error.getText())
        .contains("does not set -gpgpu_n_cluster")
        .contains("did you mean \"-gpgpu_n_clusters\"");
    assertThat(params.getDomAttribute("aria-invalid")).isEqualTo("true");
    browser.screenshot("07b-new-run-sweep-refused");
    params.sendKeys(
        Keys.chord(Keys.CONTROL, "a"),
        "-gpgpu_n_clusters=66,132",
        Keys.ENTER,
        "-gpgpu_kernel_launch_latency=3000,6000");
    assertThat(browser.find("#launch").getText()).isEqualTo("Launch 8 simulations (4 variants)");
    browser.screenshot("07c-new-run-sweep");

    browser.find("#launch").click();

    await().atMost(Browser.WAIT).until(() -> browser.hash().startsWith("#/runs/r_"));
    String runId = browser.hash().substring("#/runs/".length());
    Run run = server.cascade().runs().get(runId);
    assertThat(run.entries())
        .extracting(RunEntry::name)
        .containsExactly(
            "SM90_H100 -gpgpu_n_clusters=66 -gpgpu_kernel_launch_latency=3000",
            "SM90_H100 -gpgpu_n_clusters=66 -gpgpu_kernel_launch_latency=6000",
            "SM90_H100 -gpgpu_n_clusters=132 -gpgpu_kernel_launch_latency=3000",
            "SM90_H100 -gpgpu_n_clusters=132 -gpgpu_kernel_launch_latency=6000");
    assertThat(run.sims()).hasSize(8);
    await()
        .atMost(RUN_WAIT)
        .until(() -> server.cascade().runs().get(runId).state() != RunState.ACTIVE);

    // The run page links each variant's effective gpgpusim.config.
    browser.waitFor(".variant-files a");
    List<WebElement> files = browser.all(".variant-files a");
    assertThat(files).hasSize(4);
    assertThat(files.get(3).getDomAttribute("href"))
        .isEqualTo("/api/runs/" + runId + "/entries/3/gpgpusim.config");
    assertThat(browser.find(".variant-files").getText())
        .contains(
            "SM90_H100 -gpgpu_n_clusters=132 -gpgpu_kernel_launch_latency=6000: gpgpusim.config");

    // The sensitivity view: cycles on a grid of the two swept parameters, with the spread.
    open("#/runs/" + runId + "/results");
    WebElement grid = browser.waitFor("#sensitivity table[data-shape='grid']");
    assertThat(grid.findElements(By.cssSelector("tbody tr"))).hasSize(2);
    assertThat(grid.findElements(By.cssSelector("thead th"))).hasSize(3);
    assertThat(grid.getText()).contains("(n=2)");
    browser.fullScreenshot("07d-results-sensitivity");
  }

  @Test
  @Order(4)
  void newRun_sendsTheOwnerPriorityAndTimeLimitAndShowsARefusedLimit() throws IOException {
    server.speed(0);
    open("#/traces/demo/new-run");
    WebElement limit = browser.waitFor("#run-time-limit");
    browser.find("#run-owner").sendKeys("bob");
    browser.find("#run-priority").sendKeys(Keys.chord(Keys.CONTROL, "a"), "3");
    limit.sendKeys("soon");

    browser.find("#launch").click();

    WebElement error = browser.waitFor("#form-error:not([hidden])");
    assertThat(error.getText()).contains("entries[0].time_limit").contains("\"soon\"");
    limit.sendKeys(Keys.chord(Keys.CONTROL, "a"), "10m");
    browser.find("#launch").click();
    await().atMost(Browser.WAIT).until(() -> browser.hash().startsWith("#/runs/r_"));
    String runId = browser.hash().substring("#/runs/".length());
    Run run = server.cascade().runs().get(runId);
    assertThat(run.owner()).isEqualTo("bob");
    assertThat(run.priority()).isEqualTo(3);
    assertThat(run.entries().getFirst().timeLimit()).isEqualTo(Duration.ofMinutes(10));
    await()
        .atMost(RUN_WAIT)
        .until(() -> server.cascade().runs().get(runId).state() != RunState.ACTIVE);
  }

  @Test
  @Order(5)
  void cancel_asksForConfirmationThenCancelsEverySim() throws IOException {
    server.speed(1000);
    Run run = server.createRun("demo", new RunEntry("SM90_H100", 2));
    open("#/runs/" + run.id());
    await().atMost(RUN_WAIT).until(() -> browser.all("li.card[data-state='running']").size() == 2);

    browser.find("#cancel-run").click();

    WebElement confirm = browser.waitFor("#confirm-cancel");
    assertThat(confirm.isDisplayed()).isTrue();
    assertThat(browser.find("#cancel-run").isDisplayed()).isFalse();
    assertThat(browser.js("return document.activeElement.id")).isEqualTo("confirm-cancel");
    assertThat(browser.all("li.card[data-state='running']")).hasSize(2);
    browser.screenshot("08-run-cancel-confirm");

    confirm.click();

    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.all("li.card[data-state='cancelled']").size() == 2);
    assertThat(browser.find(".run-state .badge").getText()).isEqualTo("cancelled");
    assertThat(browser.find(".cancel-area").isDisplayed()).isFalse();
    assertThat(server.cascade().runs().get(run.id()).state()).isEqualTo(RunState.CANCELLED);
    browser.screenshot("09-run-cancelled");
    cancelledRunId = run.id();

    open("#/runs/" + run.id() + "/results");
    assertThat(browser.waitFor("#no-results").getText())
        .as("a cancelled run is finished: no results are to come")
        .contains("the run is cancelled")
        .doesNotContain("yet");
  }

  @Test
  @Order(6)
  void runsList_showsEveryRunWithItsTraceEntriesStateProgressAndAge() throws Exception {
    server.speed(0);
    Run quick = server.createRun("demo", new RunEntry("SM90_H200", 1));
    server.cascade().runs().await(quick.id(), RUN_WAIT);
    open("#/runs");

    List<Run> runs = server.cascade().runs().list();
    assertThat(runs).isNotEmpty();
    for (Run run : runs) {
      WebElement row = browser.waitFor("tr[data-id='" + run.id() + "']");
      await()
          .atMost(Browser.WAIT)
          .ignoreExceptions()
          .until(
              () ->
                  cell(browser.find("tr[data-id='" + run.id() + "']"), "State")
                      .equals(server.cascade().runs().get(run.id()).state().wireName()));
      row = browser.find("tr[data-id='" + run.id() + "']");
      assertThat(cell(row, "Trace")).isEqualTo("demo");
      assertThat(cell(row, "Configs")).contains(run.entries().getFirst().name() + " × ");
      assertThat(cell(row, "Progress")).contains("/ " + run.latestAttempts().size());
      assertThat(cell(row, "Age")).matches("just now|\\d+ (s|min) ago");
    }
    assertThat(cell(browser.find("tr[data-id='" + quick.id() + "']"), "Progress"))
        .contains("1 / 1");
    WebElement cancelled = browser.find("tr[data-id='" + cancelledRunId + "'] progress");
    assertThat(cancelled.getDomAttribute("data-state")).isEqualTo("cancelled");
    assertThat(cancelled.getDomProperty("value"))
        .as("a cancelled run's bar is not full: its sims did not run to their end")
        .isEqualTo("0");
    browser.screenshot("10-runs");

    // A finished run with cancelled sims offers a retry: new attempts, the old cards kept.
    open("#/runs/" + cancelledRunId);
    server.speed(0);
    WebElement retry = browser.waitFor("#retry-run");
    await().atMost(Browser.WAIT).until(retry::isDisplayed);
    retry.click();

    await()
        .atMost(RUN_WAIT)
        .until(() -> browser.all("li.card[data-state='succeeded']").size() == 2);
    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.find(".run-state .badge").getText().equals("succeeded"));
    assertThat(browser.all("li.card[data-state='cancelled']")).hasSize(2);
    assertThat(browser.all("li.card[data-state='succeeded'] h3"))
        .allSatisfy(title -> assertThat(title.getText()).contains("attempt 2"));
    assertThat(browser.all("li.card[data-state='succeeded'] .sim-origin"))
        .allSatisfy(origin -> assertThat(origin.getText()).contains("cascade-emulator-2.0"));
    assertThat(browser.find(".retry-area").isDisplayed()).isFalse();
    assertThat(server.cascade().runs().get(cancelledRunId).state()).isEqualTo(RunState.SUCCEEDED);
    browser.screenshot("09b-run-retried");
  }

  @Test
  @Order(7)
  void phoneWidth_everyScreenFitsWithoutSideways() throws Exception {
    Run done =
        server.cascade().runs().list().stream()
            .filter(run -> run.state() == RunState.SUCCEEDED)
            .filter(run -> run.sims().size() > 1)
            .findFirst()
            .orElseGet(
                () -> {
                  try {
                    server.speed(0);
                    Run run = server.createRun("demo", new RunEntry("SM90_H100", 2));
                    return server.cascade().runs().await(run.id(), RUN_WAIT);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    browser.size(390, 844);
    for (String[] screen :
        new String[][] {
          {"#/traces", "tr[data-id='demo']", "11-phone-traces"},
          {"#/traces/demo/new-run", "#launch", "12-phone-new-run"},
          {"#/runs/" + done.id(), "li.card[data-state='succeeded']", "13-phone-run"},
          {"#/runs/" + done.id() + "/results", "svg.chart", "14-phone-results"},
        }) {
      open(screen[0]);
      browser.waitFor(screen[1]);
      await()
          .atMost(Browser.WAIT)
          .untilAsserted(
              () ->
                  assertThat(
                          (Long)
                              browser.js(
                                  "return document.documentElement.scrollWidth - window.innerWidth"))
                      .as(
                          () ->
                              screen[0]
                                  + " scrolls sideways; too wide: "
                                  + browser.js(
                                      "return [...document.querySelectorAll('main *')]"
                                          + ".filter(e => e.getBoundingClientRect().right > innerWidth)"
                                          + ".slice(0, 5).map(e => e.tagName + '.' + e.className).join(', ')"))
                      .isLessThanOrEqualTo(0L));
      browser.screenshot(screen[2]);
    }
  }

  @Test
  @Order(8)
  void modules_deriveRunStatesKeepNewerSimsAndParseSplitStreams() throws IOException {
    open("#/traces");
    browser.waitFor("h1");
    String result =
        (String)
            browser.asyncJs(
                """
                const done = arguments[arguments.length - 1];
                Promise.all([import('/ui/model.js'), import('/ui/sse.js'), import('/ui/charts.js')])
                  .then(([model, sse, charts]) => {
                    const table = [
                      [['running', 'succeeded'], 'active'],
                      [['succeeded', 'succeeded'], 'succeeded'],
                      [['succeeded', 'failed'], 'partial'],
                      [['failed', 'failed'], 'failed'],
                      [['cancelled', 'failed'], 'cancelled'],
                      [['cancelled', 'succeeded'], 'partial'],
                      [['cancelled', 'cancelled'], 'cancelled'],
                      [['pending', 'lost'], 'active'],
                    ].map(([states, want]) => model.deriveRunState(states) === want);
                    const now = {state: 'succeeded', kernels_done: 5, last_heartbeat_at: '2026-01-01T00:00:09Z'};
                    const old = {state: 'running', kernels_done: 2, last_heartbeat_at: '2026-01-01T00:00:03Z'};
                    const lost = {state: 'lost', kernels_done: 3, last_heartbeat_at: '2026-01-01T00:00:05Z'};
                    const back = {state: 'running', kernels_done: 3, last_heartbeat_at: '2026-01-01T00:00:08Z'};
                    const merges = [
                      model.mergeSim(now, old).state === 'succeeded',
                      model.mergeSim(old, now).state === 'succeeded',
                      model.mergeSim(old, lost).state === 'lost',
                      model.mergeSim(lost, back).state === 'running',
                      model.mergeSim(back, lost).state === 'running',
                      model.mergeSim({...back, kernels_done: 4}, {...back, kernels_done: 1}).kernels_done === 4,
                    ];
                    const events = [];
                    const parser = new sse.EventParser((e) => events.push(e));
                    const text = 'retry: 2000\\r\\n\\r\\n: keepalive\\n\\nid: 41\\nevent: sim\\ndata: {"a":\\ndata: 1}\\n\\nid: 42\\r\\nevent: log\\r\\ndata: {"lines":["x"]}\\r\\n\\r\\n';
                    for (let i = 0; i < text.length; i += 3) parser.feed(text.slice(i, i + 3));
                    const stream = events.length === 2 && events[0].id === '41' && events[0].event === 'sim'
                      && events[0].data === '{"a":\\n1}' && events[1].id === '42' && events[1].event === 'log';
                    const ticks = charts.niceTicks(1234);
                    const noisy = ['thread block = 1,0,0', 'launching kernel name: k uid: 1',
                      'L1D_cache_core[0]: Access = 0', 'gpu_sim_cycle = 5', 'WARNING: slow', 'thread block = 2,0,0'];
                    const notable = model.notableLines(noisy).join('|');
                    const unknown = model.notableLines(['step 1', 'step 2']).join('|');
                    const logs = notable === 'launching kernel name: k uid: 1|gpu_sim_cycle = 5|WARNING: slow'
                      && unknown === 'step 1|step 2';
                    done(JSON.stringify({table, merges, stream, ticks, logs}));
                  })
                  .catch((e) => done(JSON.stringify({error: String(e)})));
                """);
    JsonNode checks = JSON.readTree(result);
    assertThat(checks.has("error")).as(result).isFalse();
    assertThat(checks.get("table")).as("the run state table").allMatch(JsonNode::asBoolean);
    assertThat(checks.get("merges")).as("newer sim descriptions win").allMatch(JsonNode::asBoolean);
    assertThat(checks.get("stream").asBoolean()).as("the event parser").isTrue();
    assertThat(checks.get("ticks").get("max").asDouble()).isEqualTo(1250.0);
    assertThat(checks.get("logs").asBoolean())
        .as("the log tail keeps launches, stats and warnings, and all of an unknown log")
        .isTrue();
  }

  private static String cell(WebElement row, String label) {
    return row.findElement(By.cssSelector("[data-label='" + label + "']")).getText().strip();
  }

  private static int kernelsDone(WebElement card) {
    String text = card.findElement(By.cssSelector(".kernels")).getText();
    return Integer.parseInt(text.replaceAll("Kernels (\\d+) / .*", "$1"));
  }
}
