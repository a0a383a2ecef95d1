package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.DemoTraces;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.SimState;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The compare page in a real browser: two finished runs of the demo trace sharing one config, the
 * second reached from the first's run screen, chosen in the page's picker, and compared per kernel.
 * The screenshot goes to {@code target/ui-screenshots/20-compare.png}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class UiCompareIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(90);

  private UiSession ui;
  private UiServer server;
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

  @Test
  void compare_fromTheRunScreen_showsPerKernelChangesAndTheConfigOnlyTheBaselineHas()
      throws Exception {
    Run before =
        server.createRun(
            DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1));
    Run after = server.createRun(DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 1));
    for (Run run : List.of(before, after)) {
      await()
          .atMost(RUN_WAIT)
          .until(() -> server.cascade().runs().get(run.id()).state() == RunState.SUCCEEDED);
    }

    browser.size(1280, 900);
    browser.open(server.url() + "/#/runs/" + before.id());
    browser.waitFor("a[href='#/compare?runs=" + before.id() + "']").click();
    await().atMost(Browser.WAIT).until(() -> browser.hash().startsWith("#/compare"));
    WebElement other = browser.waitFor("#compare-other");
    await()
        .atMost(Browser.WAIT)
        .until(
            () ->
                other.findElements(By.cssSelector("option[value='" + after.id() + "']")).size()
                    == 1);
    assertThat(
            new Select(browser.find("#compare-baseline"))
                .getFirstSelectedOption()
                .getDomAttribute("value"))
        .isEqualTo(before.id());
    new Select(other).selectByValue(after.id());
    browser.find(".compare-picker button[type='submit']").click();

    WebElement config = browser.waitFor(".compare-config[data-config='SM90_H100']");
    assertThat(browser.hash()).isEqualTo("#/compare?runs=" + before.id() + "," + after.id());
    WebElement change = browser.find(".compare-run[data-run='" + after.id() + "']");
    assertThat(change.getText())
        .contains("Only in the baseline: SM90_H200")
        .doesNotContain("Only in " + after.id());
    // The emulator is deterministic: the same trace and config give the same cycles in both runs.
    assertThat(config.findElement(By.cssSelector(".differs")).getText())
        .isEqualTo("No input known to differ.");
    List<WebElement> rows = config.findElements(By.cssSelector("table.compare-kernels tbody tr"));
    assertThat(rows).hasSizeGreaterThan(1);
    for (WebElement row : rows) {
      assertThat(row.findElement(By.cssSelector("td[data-measure='cycles']")).getText())
          .isEqualTo("±0 (+0.0%) same within spread");
    }
    assertThat(
            config.findElements(
                By.cssSelector(
                    "table.inputs tr[data-input='simulator build'][data-status='same']")))
        .hasSize(1);
    assertThat(browser.find("#measures").getText()).contains("core clock").contains("thread-level");
    browser.fullScreenshot("20-compare");

    // A statistic named in the address gets its own columns, and its chip in the picker.
    browser.open(
        server.url()
            + "/#/compare?runs="
            + before.id()
            + ","
            + after.id()
            + "&measures=gpu_tot_sim_insn:change");
    browser.waitFor("th[data-measure='gpu_tot_sim_insn:change']");
    WebElement measured = browser.waitFor(".compare-config[data-config='SM90_H100']");
    List<WebElement> cells =
        measured.findElements(
            By.cssSelector("table.compare-kernels td[data-measure='gpu_tot_sim_insn:change']"));
    assertThat(cells).hasSizeGreaterThan(1);
    assertThat(cells).allSatisfy(cell -> assertThat(cell.getText()).endsWith("same within spread"));
    assertThat(browser.find("#measures").getText())
        .contains("gpu_tot_sim_insn:change: the change in the simulator's running total");
    assertThat(browser.find("#measure-chips li[data-measure='gpu_tot_sim_insn:change']"))
        .isNotNull();
  }

  @Test
  void results_whileTheRunIsActive_carryAPartialBadgeThatGoesWhenItEnds() throws Exception {
    server.speed(3000); // about 18 s for the demo trace: kernels finish one by one
    Run run;
    try {
      run = server.createRun(DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 1));
      // The agent reads its pace when it starts: once it reports, later sims can be fast again.
      await()
          .atMost(RUN_WAIT)
          .until(
              () ->
                  server.cascade().runs().get(run.id()).sims().get(0).state() == SimState.RUNNING);
    } finally {
      server.speed(0);
    }
    browser.open(server.url() + "/#/runs/" + run.id() + "/results");
    WebElement partial = browser.waitFor("#partial");
    assertThat(partial.findElement(By.cssSelector(".badge.partial")).getText())
        .isEqualTo("partial");
    await()
        .atMost(Browser.WAIT)
        .ignoreExceptions() // the note is redrawn at each refresh
        .until(
            () ->
                browser.all("#partial").stream()
                    .anyMatch(
                        note -> note.getText().matches("(?s).*0 of 1 sims finished, [1-9].*")));
    assertThat(browser.find("#partial").getText())
        .contains("running ones included; totals count succeeded replicas only");
    browser.screenshot("21-results-partial");

    server.cascade().runs().cancel(run.id());
    await().atMost(Browser.WAIT).until(() -> browser.all("#partial").isEmpty());
  }

  @Test
  void compare_withAnUnknownRun_showsTheServersMessage() {
    browser.open(server.url() + "/#/compare?runs=r_nope,r_gone");
    WebElement error = browser.waitFor("#compare .error-box");
    assertThat(error.getText()).contains("run \"r_nope\" in runs does not exist");
  }
}
