package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.DemoTraces;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The results page's measure picker in a real browser: a finished run of the demo trace on two
 * configs, a statistic the emulator prints picked from the run's own list, its columns (spread and
 * change from the baseline) on the summary and per kernel, kept in the address across a reload, a
 * second one added and removed, and a misspelt name refused with the server's message beside the
 * picker. The screenshot goes to {@code target/ui-screenshots/21-results-measures.png};
 * docs/images/ui-results-measures.png is a copy of one, made by hand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class UiMeasuresIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(90);
  private static final String L2 = "L2_total_cache_miss_rate";
  private static final String TOTAL_L2 =
      "#measures-table tr[data-row='total'][data-config='SM90_H100'] td[data-measure='" + L2 + "']";

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
  void pickedMeasure_showsItsColumnsKeepsThemOnReloadAndSaysWhyAMisspeltOneIsRefused() {
    Run run =
        server.createRun(
            DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1));
    await()
        .atMost(RUN_WAIT)
        .until(() -> server.cascade().runs().get(run.id()).state() == RunState.SUCCEEDED);

    browser.size(1280, 900);
    String page = server.url() + "/#/runs/" + run.id() + "/results";
    browser.open(page);
    browser.waitFor("table.summary");
    // Nothing picked: the summary keeps its ten columns, and there is no measures section.
    assertThat(browser.all("table.summary thead th")).hasSize(10);
    assertThat(browser.all("#measures")).isEmpty();
    // The run's own statistics are offered.
    browser.waitFor("#measure-statistics option[value='" + L2 + "']");
    assertThat(browser.all("#measure-statistics option[value='gpu_occupancy']")).hasSize(1);

    add(L2);
    WebElement total = browser.waitFor(TOTAL_L2);
    assertThat(total.getText()).matches("[0-9][0-9.,]*( \\(all 2 agree\\)| ± .*)?");
    assertThat(browser.hash()).isEqualTo("#/runs/" + run.id() + "/results?measures=" + L2);
    assertThat(browser.all("#measure-chips li[data-measure='" + L2 + "']")).hasSize(1);
    WebElement header = browser.find("table.summary th[data-measure='" + L2 + "']");
    assertThat(header.getDomAttribute("title")).isNotBlank();
    assertThat(
            browser
                .find(
                    "table.summary tr[data-config='SM90_H100'] td[data-measure-change='"
                        + L2
                        + "']")
                .getText())
        .isEqualTo("baseline");
    assertThat(
            browser
                .find(
                    "table.summary tr[data-config='SM90_H200'] td[data-measure-change='"
                        + L2
                        + "']")
                .getText())
        .matches("[0-9.]+× (same within spread|(higher|lower)(, (better|worse))?)");
    // What it counts, the server's words, under the per-kernel table as in the header's tooltip.
    assertThat(browser.find("#measures .measure-notes dd").getText())
        .isEqualTo(header.getDomAttribute("title").strip());
    assertThat(browser.find("#csv").getDomAttribute("href")).endsWith("?measures=" + L2);

    browser.driver.navigate().refresh();
    assertThat(browser.waitFor(TOTAL_L2).getText()).matches("[0-9][0-9.,]*.*");
    assertThat(browser.all("#measure-chips li[data-measure='" + L2 + "']")).hasSize(1);
    // Tall enough for the picker, the summary and the per-kernel table in one shot.
    browser.size(1280, 1580);
    browser.screenshot("21-results-measures");
    browser.size(1280, 900);

    // A second measure, then removed with its chip's button.
    add("gpu_occupancy");
    browser.waitFor("#measures-table td[data-measure='gpu_occupancy']");
    assertThat(browser.hash()).endsWith("?measures=" + L2 + ",gpu_occupancy");
    browser.find("#measure-chips li[data-measure='gpu_occupancy'] button").click();
    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.all("#measures-table td[data-measure='gpu_occupancy']").isEmpty());
    assertThat(browser.hash()).endsWith("?measures=" + L2);

    // A misspelt name: the server's 422 next to the picker, the name back in the input, the
    // chosen measure still shown.
    add("L2_total_cache_mis_rate");
    WebElement error = browser.waitFor("#measure-error:not([hidden])");
    await()
        .atMost(Browser.WAIT)
        .untilAsserted(
            () ->
                assertThat(error.getText())
                    .contains("no kernel of this run printed a statistic named")
                    .contains("L2_total_cache_mis_rate")
                    .contains("did you mean"));
    assertThat(browser.find("#measure-name").getDomProperty("value"))
        .isEqualTo("L2_total_cache_mis_rate");
    assertThat(browser.find("#measure-name").getDomAttribute("aria-invalid")).isEqualTo("true");
    assertThat(browser.hash()).isEqualTo("#/runs/" + run.id() + "/results?measures=" + L2);
    assertThat(browser.all("#measure-chips li")).hasSize(1);
    assertThat(browser.waitFor(TOTAL_L2).getText()).matches("[0-9][0-9.,]*.*");
    browser.screenshot("22-results-measures-refused");
  }

  private void add(String name) {
    WebElement input = browser.find("#measure-name");
    input.clear();
    input.sendKeys(name);
    browser.find("#measure-add").click();
    await()
        .atMost(Browser.WAIT)
        .until(
            () ->
                browser
                            .find("#measure-picker")
                            .findElements(By.cssSelector("li[data-measure='" + name + "']"))
                            .size()
                        == 1
                    || !browser.all("#measure-error:not([hidden])").isEmpty());
  }
}
