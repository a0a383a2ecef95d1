package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.DemoTraces;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

/**
 * The results' comparison with the hardware in a real browser: the demo trace given a Nsight
 * Compute CSV through the API, a run on two configs of its architecture, and the page showing the
 * correlation figures and the log-log scatters. The section's screenshot goes to {@code
 * docs/images/ui-results-hardware.png}, which docs/ui.md shows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class UiHardwareIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(90);
  private static final Path DOC_IMAGES = Path.of("..", "docs", "images");

  private UiServer server;
  private Browser browser;

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    Browser.assumeInstalled();
    Assumptions.assumeFalse(UiServer.launcherUnavailable(), "the local launcher cannot run here");
    server = UiServer.start(dir.resolve("server"), null);
    browser = Browser.start(dir.resolve("profile"));
  }

  @AfterAll
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
  void results_showTheCorrelationWithTheHardwareAndALogLogScatter() throws Exception {
    HttpResponse<String> stored =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            server.url()
                                + "/api/traces/"
                                + DemoTraces.DEMO_ID
                                + "/hardware?name=demo-h100.ncu.csv"))
                    .PUT(HttpRequest.BodyPublishers.ofString(ncuCsv()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    Run run =
        server.createRun(
            DemoTraces.DEMO_ID, new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1));
    await()
        .atMost(RUN_WAIT)
        .until(() -> server.cascade().runs().get(run.id()).state() == RunState.SUCCEEDED);

    browser.size(1280, 900);
    browser.open(server.url() + "/#/runs/" + run.id() + "/results");
    WebElement section = browser.waitFor("#hardware");
    await().atMost(Browser.WAIT).until(() -> browser.all("#hardware svg.scatter").size() == 2);

    List<WebElement> scatters = browser.all("#hardware svg.scatter");
    // Five measured kernels, paired with each of the two sm_90 configs.
    assertThat(scatters.get(0).findElements(By.cssSelector("circle.point"))).hasSize(10);
    assertThat(scatters.get(0).findElements(By.cssSelector("line.diagonal"))).hasSize(1);
    assertThat(scatters.get(0).getDomAttribute("aria-label")).contains("log-log");
    WebElement h100 = browser.find("#hardware .fit[data-config='SM90_H100']");
    assertThat(h100.findElement(By.cssSelector(".fit-cycles")).getText())
        .containsPattern("correlation -?[0-9.]+ · MAE [0-9.,]+% · aggregate error [0-9.,]+%")
        .contains("NRMSE")
        .contains("(5 kernels)");
    assertThat(section.getText()).contains("demo-h100.ncu.csv").contains("by launch order");
    // The baseline's speedups in the summary table: itself, and the H200 against it.
    assertThat(
            browser.find("tr[data-config='SM90_H100'] [data-label='Speedup (cycles)']").getText())
        .isEqualTo("baseline");
    assertThat(
            browser.find("tr[data-config='SM90_H200'] [data-label='Speedup (cycles)']").getText())
        .matches("same within spread|[0-9.]+× (faster|slower)");

    browser.js("arguments[0].scrollIntoView()", section);
    byte[] shot = section.getScreenshotAs(OutputType.BYTES);
    Files.createDirectories(Browser.SCREENSHOTS);
    Files.write(Browser.SCREENSHOTS.resolve("15-results-hardware.png"), shot);
    if (Files.isDirectory(DOC_IMAGES)) {
      Files.write(DOC_IMAGES.resolve("ui-results-hardware.png"), shot);
    }
  }

  private static String ncuCsv() throws IOException {
    try (InputStream in =
        UiHardwareIT.class.getResourceAsStream("/dev/cascade/core/hardware/demo-h100.ncu.csv")) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
