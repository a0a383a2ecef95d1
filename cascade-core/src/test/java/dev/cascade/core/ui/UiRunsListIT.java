package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.DemoTraces;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The runs list in a real browser with more runs than a page: 51 cancelled runs of one owner and a
 * running one of another, paged 50 at a time with Older and Newer, then filtered by owner and by
 * state. The screenshot goes to {@code target/ui-screenshots/16-runs-paged.png}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class UiRunsListIT {

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
  void runsList_pagesFiftyAtATimeAndFiltersByOwnerAndState() {
    List<RunEntry> entries = List.of(new RunEntry("SM90_H200", 1));
    for (int i = 0; i < 51; i++) {
      Run run =
          server
              .cascade()
              .runs()
              .create(DemoTraces.DEMO_ID, entries, RunOptions.defaults().withOwner("bulk"));
      server.cascade().runs().cancel(run.id());
    }
    Run solo =
        server
            .cascade()
            .runs()
            .create(DemoTraces.DEMO_ID, entries, RunOptions.defaults().withOwner("solo"));

    browser.open(server.url() + "/#/runs");
    await().atMost(Browser.WAIT).until(() -> rows().size() == 50);
    assertThat(browser.find("#runs-newer").isEnabled()).isFalse();
    assertThat(rows().getFirst().getDomAttribute("data-id")).isEqualTo(solo.id());
    browser.screenshot("16-runs-paged");

    browser.find("#runs-older").click();
    await().atMost(Browser.WAIT).until(() -> rows().size() == 2);
    assertThat(browser.find("#runs-page").getText()).isEqualTo("Page 2");
    assertThat(browser.find("#runs-older").isEnabled()).isFalse();
    browser.find("#runs-newer").click();
    await().atMost(Browser.WAIT).until(() -> rows().size() == 50);

    WebElement owner = browser.find("#runs-owner");
    owner.sendKeys("solo", Keys.ENTER);
    await().atMost(Browser.WAIT).until(() -> rows().size() == 1);
    WebElement row = rows().getFirst();
    assertThat(row.getDomAttribute("data-id")).isEqualTo(solo.id());
    assertThat(cell(row, "Configs")).startsWith("SM90_H200 × 1");
    int kernels = solo.sims().getFirst().progress().kernelsTotal();
    assertThat(kernels).isPositive();
    assertThat(cell(row, "Progress")).containsPattern("kernels \\d+ / " + kernels);
    assertThat(cell(row, "Owner")).isEqualTo("solo");

    owner.clear();
    owner.sendKeys(Keys.ENTER);
    new Select(browser.find("#runs-state")).selectByValue("cancelled");
    await().atMost(Browser.WAIT).until(() -> rows().size() == 50);
    assertThat(rows())
        .allSatisfy(r -> assertThat(cell(r, "State")).isEqualTo("cancelled"))
        .allSatisfy(r -> assertThat(cell(r, "Owner")).isEqualTo("bulk"));
    assertThat(browser.find("#runs-older").isEnabled()).isTrue();
  }

  private List<WebElement> rows() {
    return browser.all("table.runs tbody tr");
  }

  private static String cell(WebElement row, String label) {
    return row.findElement(By.cssSelector("[data-label='" + label + "']")).getText().strip();
  }
}
