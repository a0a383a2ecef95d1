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
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * At a 1400 px wide window, the screens with the widest tables (a run, its results with a speedup
 * column per config, two runs compared) fit: the page never scrolls sideways, and every table fits
 * its own box, so no column hides behind a scrollbar. Screenshots go to {@code
 * target/ui-screenshots/3x-wide-*.png}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class UiWideTablesIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(90);

  /** Each table wider than the box it scrolls in, and each element past the window's right edge. */
  private static final String TOO_WIDE =
      """
      const tables = [...document.querySelectorAll('main table')]
        .map(t => [t, t.closest('.scroll') || t.parentElement])
        .filter(([t, box]) => box.scrollWidth > box.clientWidth + 1)
        .map(([t, box]) => 'table.' + t.className + ' is ' + box.scrollWidth
          + ' px wide in a box of ' + box.clientWidth + ' px');
      const past = [...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5)
        .map(e => e.tagName.toLowerCase() + '.' + e.className + ' ends at '
          + Math.round(e.getBoundingClientRect().right) + ' px');
      const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
      return (page > 0 ? ['the page scrolls ' + page + ' px sideways'] : [])
        .concat(tables, past);
      """;

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
  void at1400px_runResultsAndCompareTablesFitWithoutSideways() throws Exception {
    Run before =
        server.createRun(
            DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 2));
    Run after =
        server.createRun(
            DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1));
    for (Run run : List.of(before, after)) {
      await()
          .atMost(RUN_WAIT)
          .until(() -> server.cascade().runs().get(run.id()).state() == RunState.SUCCEEDED);
    }

    browser.size(1400, 900);
    for (String[] screen :
        new String[][] {
          {"#/runs/" + before.id(), "li.card[data-state='succeeded']", "30-wide-run"},
          {"#/runs/" + before.id() + "/results", "svg.chart", "31-wide-results"},
          {
            "#/compare?runs=" + before.id() + "," + after.id(),
            ".compare-config[data-config='SM90_H100'] table.compare-kernels",
            "32-wide-compare"
          },
        }) {
      browser.open(server.url() + "/" + screen[0]);
      browser.waitFor(screen[1]);
      await()
          .atMost(Browser.WAIT)
          .ignoreExceptions() // screens redraw as their data comes
          .untilAsserted(() -> assertThat((List<?>) browser.js(TOO_WIDE)).as(screen[0]).isEmpty());
      browser.fullScreenshot(screen[2]);
    }
  }
}
