package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The run screen across a server restart in the middle of a run: the page is not reloaded, its
 * event stream reconnects by itself and resumes after the last event it saw, and the cards catch up
 * with what the sims did while the server was down.
 */
final class UiRestartIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  private UiServer server;
  private Browser browser;

  @BeforeEach
  void start() throws IOException {
    Browser.assumeInstalled();
    Assumptions.assumeFalse(
        UiServer.launcherUnavailable(),
        "the local launcher cannot run here: " + UiServer.launcherUnavailableReason());
    server = UiServer.start(dir.resolve("server"), null);
    browser = Browser.start(dir.resolve("profile"));
  }

  @AfterEach
  void stop() {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  void runScreen_reconnectsAfterAServerRestartAndTheCardsCatchUp() throws IOException {
    server.speed(2500);
    Run run = server.createRun("demo", new RunEntry("SM90_H100", 2));
    browser.open(server.url() + "/#/runs/" + run.id());
    await()
        .atMost(RUN_WAIT)
        .ignoreExceptions()
        .until(
            () ->
                browser.all("li.card[data-state='running']").size() == 2
                    && browser.all("li.card").stream().allMatch(card -> kernelsDone(card) >= 1));
    browser.js("window.__samePage = 'yes'");

    server.stop();

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> browser.find(".live").getText().startsWith("Reconnecting"));
    assertThat(browser.find("#banner").getText()).contains("reconnecting");
    browser.screenshot("20-run-server-down");

    server.startAgain();

    await()
        .atMost(RUN_WAIT)
        .ignoreExceptions()
        .until(() -> browser.all("li.card[data-state='succeeded']").size() == 2);
    assertThat(browser.js("return window.__samePage"))
        .as("the page was not reloaded")
        .isEqualTo("yes");
    assertThat(browser.find(".run-state .badge").getText()).isEqualTo("succeeded");
    assertThat(browser.find("#banner").isDisplayed()).isFalse();
    for (WebElement card : browser.all("li.card")) {
      assertThat(card.findElement(By.cssSelector(".kernels")).getText()).isEqualTo("Kernels 5 / 5");
      assertThat(card.findElement(By.cssSelector(".log-tail")).getText()).contains("GPGPU-Sim");
    }
    browser.screenshot("21-run-after-restart");
  }

  private static int kernelsDone(WebElement card) {
    String text = card.findElement(By.cssSelector(".kernels")).getText();
    return Integer.parseInt(text.replaceAll("Kernels (\\d+) / .*", "$1"));
  }
}
