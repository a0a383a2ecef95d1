package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.FleetRun;
import dev.cascade.core.Cascade;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.TraceState;
import dev.cascade.core.testkit.FleetLauncher;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The run screen's fleet view in a real browser, on runs of hundreds of emulated sims played in
 * this JVM by {@link FleetLauncher}: a 256-sim run followed to its end, filtered by state and
 * config, one sim's card opened; and a 512-sim run whose render and update times the page measures
 * ({@code window.__cascadeFleet}), printed for people to read, never asserted.
 */
final class FleetBrowserIT {

  private static final Duration RUN_WAIT = Duration.ofSeconds(180);

  @TempDir Path dir;

  private FleetLauncher launcher;
  private FleetRun fleet;
  private Cascade cascade;
  private Browser browser;

  @AfterEach
  void stop() {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (cascade != null) {
        cascade.close();
      }
      if (fleet != null) {
        fleet.close();
      }
    }
  }

  /** SM90 configs {@code SM90_FLEET_A}, ... of the demo trace's architecture, 64 replicas each. */
  private List<RunEntry> entries(int configs) {
    List<RunEntry> entries = new ArrayList<>();
    for (int i = 0; i < configs; i++) {
      entries.add(new RunEntry(configName(i), RunEntry.MAX_COUNT));
    }
    return entries;
  }

  private static String configName(int i) {
    return "SM90_FLEET_" + (char) ('A' + i);
  }

  /** A server on the demo traces whose catalog is {@code configs} small written SM90 configs. */
  private String start(int configs, double speed, Set<String> failing) throws IOException {
    Browser.assumeInstalled();
    Path catalog = dir.resolve("tested-cfgs");
    for (int i = 0; i < configs; i++) {
      Path config = Files.createDirectories(catalog.resolve(configName(i)));
      Files.writeString(
          config.resolve("gpgpusim.config"),
          String.join(
              "\n",
              "-gpgpu_compute_capability_major 9",
              "-gpgpu_compute_capability_minor 0",
              "-gpgpu_n_clusters " + (60 + 2 * i),
              "-gpgpu_n_cores_per_cluster 2",
              "-gpgpu_clock_domains 1755.0:1755.0:1755.0:2619.0",
              ""));
    }
    Path data = dir.resolve("data");
    DemoTraces.seedIfEmpty(data);
    // Held: the page opens on a run whose sims are launched but not started.
    launcher = FleetLauncher.builder().speed(speed).failing(failing).holdUntilRelease().build();
    cascade =
        Cascade.builder()
            .dataDir(data)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.fromFolder(catalog))
            .uploadQuietPeriod(Duration.ofMillis(200))
            .traceRescanInterval(Duration.ofMillis(200))
            .simCommand(List.of("emulated-in-the-test"))
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    String url = cascade.server().orElseThrow().url();
    fleet =
        EmulatorFleet.builder()
            .mainUrl(URI.create(url))
            .heartbeatInterval(Duration.ofMillis(1000))
            .chunks(64 << 10, Duration.ofMillis(500))
            .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
            .giveUpAfter(Duration.ofMinutes(3))
            .log(new PrintStream(OutputStream.nullOutputStream()))
            .build()
            .start();
    launcher.sendTo(fleet);
    await()
        .atMost(UiServer.WAIT)
        .until(
            () ->
                cascade
                    .traces()
                    .find(DemoTraces.DEMO_ID)
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));
    browser = Browser.start(dir.resolve("profile"));
    browser.size(1280, 900);
    return url;
  }

  /** Creates the run, waits until every sim is launched (and waits), and opens its page. */
  private Run openRun(String url, int configs) {
    Run run = cascade.runs().create(DemoTraces.DEMO_ID, entries(configs));
    int sims = configs * RunEntry.MAX_COUNT;
    await().atMost(UiServer.WAIT).until(() -> launcher.launched() == sims);
    browser.open(url + "/#/runs/" + run.id());
    await()
        .atMost(Browser.WAIT)
        .until(() -> cells("") == sims && browser.js("return window.__cascadeFleet") != null);
    return run;
  }

  /** Visible cells, of {@code state} when it is not empty. */
  private long cells(String state) {
    String selector =
        state.isEmpty()
            ? ".fleet-cell[data-sim-id]"
            : ".fleet-cell[data-sim-id][data-state='" + state + "']";
    return (Long)
        browser.js(
            "return [...document.querySelectorAll(arguments[0])].filter(c => c.offsetParent !== null).length",
            selector);
  }

  private void filter(String id, String value) {
    new Select(browser.find("#" + id)).selectByValue(value);
  }

  @Test
  void twoHundredFiftySixSims_followedToTheEnd_filteredByStateAndConfig_oneCardOpened()
      throws IOException {
    String failing = configName(3);
    String url = start(4, 27_000, Set.of(failing));
    Run run = openRun(url, 4);

    assertThat(browser.all(".fleet-group")).hasSize(4);
    assertThat(browser.all("li.card"))
        .as("a large run opens on the fleet, not the cards")
        .isEmpty();
    assertThat(browser.find("#fleet-toggle").getText()).isEqualTo("Show every card");
    WebElement firstCell = browser.find(".fleet-cell[data-sim-id]");
    assertThat(firstCell.getDomAttribute("aria-label"))
        .startsWith(configName(0) + " · replica ")
        .contains("kernels 0 / 5");
    assertThat(firstCell.getDomAttribute("title"))
        .isEqualTo(firstCell.getDomAttribute("aria-label"));
    assertThat(browser.find(".fleet-legend").getText())
        .contains("pending", "running", "succeeded", "failed");

    launcher.release();
    await().atMost(RUN_WAIT).until(() -> cells("succeeded") == 192 && cells("failed") == 64);
    await()
        .atMost(Browser.WAIT)
        .until(() -> browser.find(".run-state .badge").getText().equals("partial"));
    assertThat(cascade.runs().get(run.id()).state()).isEqualTo(RunState.PARTIAL);
    WebElement failedGroup = browser.find(".fleet-group[data-config='" + failing + "'] h3");
    assertThat(failedGroup.getText())
        .isEqualTo(failing + ": 64 sims (64 failed), kernels 128 / 320");
    assertThat(browser.find(".fleet-group[data-config='" + configName(0) + "'] h3").getText())
        .isEqualTo(configName(0) + ": 64 sims (64 succeeded), kernels 320 / 320");

    filter("fleet-state", "failed");
    assertThat(cells("")).isEqualTo(64);
    assertThat(browser.all(".fleet-group").stream().filter(WebElement::isDisplayed)).hasSize(1);
    assertThat(browser.find(".fleet-shown").getText()).isEqualTo("Showing 64 of 256 sims");
    filter("fleet-config", configName(1));
    assertThat(cells("")).isZero();
    assertThat(browser.find(".fleet-shown").getText()).isEqualTo("Showing 0 of 256 sims");
    filter("fleet-state", "");
    assertThat(cells("")).isEqualTo(64);
    assertThat(cells("succeeded")).isEqualTo(64);

    WebElement cell =
        browser.find(".fleet-group[data-config='" + configName(1) + "'] .fleet-cell[data-sim-id]");
    String simId = cell.getDomAttribute("data-sim-id");
    cell.click();
    WebElement card = browser.waitFor("li.card[data-sim-id='" + simId + "']");
    assertThat(browser.all("li.card")).hasSize(1);
    assertThat(card.findElement(By.cssSelector("h3")).getText()).startsWith(configName(1));
    await()
        .atMost(Browser.WAIT)
        .until(
            () -> card.findElement(By.cssSelector(".kernels")).getText().equals("Kernels 5 / 5"));
    assertThat(card.findElement(By.cssSelector(".sim-state")).getText()).isEqualTo("succeeded");
    assertThat(cell.getDomAttribute("aria-pressed")).isEqualTo("true");
    filter("fleet-config", "");
    assertThat(cells("")).isEqualTo(256);
    assertThat(browser.all("li.card")).as("the card stays open under the fleet").hasSize(1);
    browser.fullScreenshot("fleet-256");

    browser.find("#fleet-toggle").click();
    await().atMost(Browser.WAIT).until(() -> browser.all("li.card").size() == 256);
    assertThat(browser.find(".fleet-box").isDisplayed()).isFalse();
  }

  @Test
  void fleetModule_labelsSayQueuePlaceAndEstimate_andAnUpdateTouchesOnlyTheSimsThatChanged()
      throws IOException {
    String url = start(1, 0, Set.of());
    browser.open(url + "/#/traces");
    @SuppressWarnings("unchecked")
    List<Object> result =
        (List<Object>)
            browser.asyncJs(
                """
                const done = arguments[arguments.length - 1];
                import('/ui/fleet.js').then((fleet) => {
                  const now = Date.parse('2026-12-01T12:00:00Z');
                  const waiting = {id: 's_1', gpu_config: 'SM90_H100', replica: 3, state: 'pending',
                    kernels_done: 0, queue_position: 4, eta: '2026-12-01T12:02:00Z'};
                  const running = {...waiting, state: 'running', kernels_done: 2, queue_position: null};
                  const view = fleet.createFleet({onOpen: () => {}, kernelTotal: 5});
                  const sims = Array.from({length: 20}, (_, i) =>
                    ({...waiting, id: 's_' + i, replica: i, queue_position: i + 1}));
                  view.update(sims);
                  const before = window.__cascadeFleet.cellsTouched;
                  view.update([...sims.slice(1), {...sims[0], state: 'running', queue_position: null}]);
                  done([
                    fleet.cellLabel(waiting, 5, now),
                    fleet.cellLabel({...running, state: 'succeeded', kernels_done: 5}, 5, now),
                    window.__cascadeFleet.cellsTouched - before,
                    view.root.querySelector('h3').textContent,
                  ]);
                });
                """);

    assertThat(result.get(0))
        .asString()
        .startsWith(
            "SM90_H100 · replica 3, pending, kernels 0 / 5, #4 in the queue, done in about 2 min");
    assertThat(result.get(1)).isEqualTo("SM90_H100 · replica 3, succeeded, kernels 5 / 5");
    assertThat(result.get(2)).isEqualTo(1L);
    assertThat(result.get(3))
        .isEqualTo("SM90_H100: 20 sims (19 pending, 1 running), kernels 0 / 100");
  }

  @Test
  void fiveHundredTwelveSims_updatedLive_renderAndUpdateTimesPrinted() throws IOException {
    String url = start(8, 6_000, Set.of());
    Run run = openRun(url, 8);
    launcher.release();
    await().atMost(RUN_WAIT).until(() -> cells("succeeded") == 512);
    assertThat(cascade.runs().get(run.id()).state()).isEqualTo(RunState.SUCCEEDED);

    @SuppressWarnings("unchecked")
    Map<String, Object> stats = (Map<String, Object>) browser.js("return window.__cascadeFleet");
    long frames = ((Number) stats.get("frames")).longValue();
    long applied = ((Number) stats.get("simsApplied")).longValue();
    long touched = ((Number) stats.get("cellsTouched")).longValue();
    double updateMs = ((Number) stats.get("updateMs")).doubleValue();
    // Only changed sims reach the view: far fewer cell updates than a redraw of all per frame.
    assertThat(touched).isLessThan(frames * 512 / 4);
    assertThat(applied).isGreaterThan(512);
    System.out.println(
        String.format(
            Locale.ROOT,
            "fleet view, 512 sims (machine shared by other builds): first render %.1f ms, first"
                + " paint %.1f ms; %d sim updates (%d cells changed) applied in %d frames,"
                + " %.1f ms in all, %.3f ms per frame on average, %.1f ms in the slowest frame,"
                + " %.4f ms per sim update",
            ((Number) stats.get("firstRenderMs")).doubleValue(),
            ((Number) stats.get("firstPaintMs")).doubleValue(),
            applied,
            touched,
            frames,
            updateMs,
            updateMs / Math.max(1, frames - 1),
            ((Number) stats.get("maxUpdateMs")).doubleValue(),
            updateMs / Math.max(1, applied)));
  }
}
