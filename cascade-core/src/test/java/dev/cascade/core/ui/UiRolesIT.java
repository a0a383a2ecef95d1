package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A viewer in the browser: signs in with their own token, sees who they are, and is not offered
 * what their role cannot do (a new run, cancelling a run).
 */
final class UiRolesIT {

  private static final String TOKEN = "ui-roles-admin-token";

  @TempDir Path dir;
  private UiSession ui;
  private UiServer server;
  private Browser browser;

  @BeforeEach
  void start() throws IOException {
    ui = UiSession.start(dir, TOKEN);
    server = ui.server();
    browser = ui.browser();
  }

  @AfterEach
  void stop() {
    if (ui != null) {
      ui.close();
    }
  }

  private String addViewer() throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> added =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/api/users"))
                  .header("Authorization", "Bearer " + TOKEN)
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"name\": \"vera\", \"role\": \"viewer\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
      return new ObjectMapper().readTree(added.body()).get("token").asText();
    }
  }

  @Test
  void aViewer_isSignedInByName_andOfferedNoNewRunNorCancel() throws Exception {
    String token = addViewer();
    Run run = server.createRun("demo", new RunEntry("SM90_H100", 1));

    browser.open(server.url() + "/#/traces");
    browser.waitFor("#token-dialog[open] #token-input").sendKeys(token);
    browser.find("#token-form button[type=submit]").click();
    browser.waitFor("tr[data-id='demo']");

    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.find("#who").getText().equals("Signed in as vera (viewer)"));
    assertThat(browser.all("a[data-needs='submitter']")).isNotEmpty();
    assertThat(browser.all("a[data-needs='submitter']"))
        .allSatisfy(link -> assertThat(link.isDisplayed()).isFalse());

    browser.open(server.url() + "/#/runs/" + run.id());
    browser.waitFor("#cancel-run");
    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.find(".run-summary").getText().contains("Owner"));
    assertThat(browser.find(".run-summary").getText()).contains("local");
    assertThat(browser.find("#cancel-run").isDisplayed()).isFalse();
    browser.screenshot("35-viewer-run");
  }
}
