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

/**
 * A server with a token: the page asks for it once, keeps it for the tab, and sends it on every
 * call, the run's event stream included.
 */
final class UiTokenIT {

  private static final String TOKEN = "ui-test-token";

  @TempDir Path dir;
  private UiServer server;
  private Browser browser;

  @BeforeEach
  void start() throws IOException {
    Browser.assumeInstalled();
    Assumptions.assumeFalse(
        UiServer.launcherUnavailable(),
        "the local launcher cannot run here: " + UiServer.launcherUnavailableReason());
    server = UiServer.start(dir.resolve("server"), TOKEN);
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
  void page_asksForTheTokenAndFollowsARunWithIt() throws IOException {
    server.speed(5000);
    browser.open(server.url() + "/#/traces");

    browser.waitFor("#token-dialog[open] #token-input");
    assertThat(browser.js("return document.activeElement.id")).isEqualTo("token-input");
    browser.screenshot("30-token-prompt");
    browser.find("#token-cancel").click();
    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.find("#banner").getText().contains("needs a token"));
    assertThat(browser.all("#token-dialog[open]")).isEmpty();
    assertThat(browser.find("#token-button").getText()).isEqualTo("Enter token");

    browser.find("#token-button").click();
    browser.waitFor("#token-dialog[open] #token-input").sendKeys("wrong-token");
    browser.find("#token-form button[type=submit]").click();
    await()
        .atMost(Browser.WAIT)
        .until(
            () ->
                browser.find("#token-error").isDisplayed()
                    && browser.find("#token-error").getText().contains("refused"));
    browser.find("#token-input").sendKeys(TOKEN);
    browser.find("#token-form button[type=submit]").click();

    browser.waitFor("tr[data-id='demo']");
    assertThat(browser.find("#token-dialog").isDisplayed()).isFalse();
    assertThat(browser.js("return sessionStorage.getItem('cascade.token')")).isEqualTo(TOKEN);
    assertThat(browser.find("#token-button").getText()).isEqualTo("Forget token");

    Run run = server.createRun("demo", new RunEntry("SM90_H100", 1));
    browser.open(server.url() + "/#/runs/" + run.id());
    await()
        .atMost(Duration.ofSeconds(90))
        .ignoreExceptions()
        .until(() -> browser.all("li.card[data-state='succeeded']").size() == 1);
    assertThat(browser.find("li.card .kernels").getText()).isEqualTo("Kernels 5 / 5");
    assertThat(browser.all("#token-dialog[open]")).isEmpty();
  }
}
