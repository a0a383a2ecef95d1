package dev.cascade.core.ui;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.net.PortProber;

/**
 * Headless Debian Chromium driven through Debian's chromedriver: both executables are named
 * explicitly, so Selenium never looks for (or downloads) a driver or a browser of its own.
 */
final class Browser implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");
  static final Duration WAIT = Duration.ofSeconds(30);

  final ChromeDriver driver;
  private final ChromeDriverService service;

  private Browser(Path profile) throws IOException {
    // The service's constructor rather than its builder: the builder is a ServiceLoader provider
    // whose annotation javac would warn about, and the executable is named either way.
    int port = PortProber.findFreePort();
    service =
        new ChromeDriverService(
            CHROMEDRIVER.toFile(),
            port,
            Duration.ofSeconds(20),
            List.of("--port=" + port),
            Map.of());
    service.sendOutputTo(OutputStream.nullOutputStream());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        "--lang=en-US",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
  }

  /**
   * Skips the calling test unless Debian's chromium and chromedriver are installed, naming what is
   * missing and how to install it; said on stderr too, since Maven's summary shows no reasons.
   */
  static void assumeInstalled() {
    List<String> missing =
        Stream.of(CHROMIUM, CHROMEDRIVER)
            .filter(p -> !Files.isExecutable(p))
            .map(Path::toString)
            .toList();
    if (!missing.isEmpty()) {
      String why = missingMessage(missing);
      System.err.println("skipped: " + why);
      Assumptions.abort(why);
    }
  }

  /** Why browser tests skip: what is missing, and the one command that installs both. */
  static String missingMessage(List<String> missing) {
    return "browser tests need Debian's chromium and chromedriver; missing "
        + String.join(" and ", missing)
        + ": install them with 'apt-get install -y chromium chromium-driver' (.ci/run does)";
  }

  static Browser start(Path profile) {
    assumeInstalled();
    try {
      return new Browser(profile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void open(String url) {
    driver.get(url);
  }

  /** Sets the window's outer size; the page then lays out for about that width. */
  void size(int width, int height) {
    driver.manage().window().setSize(new Dimension(width, height));
  }

  WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /** Waits until {@code css} matches an element, and returns it. */
  WebElement waitFor(String css) {
    return await()
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> driver.findElement(By.cssSelector(css)), element -> element != null);
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  Object asyncJs(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
  }

  String hash() {
    return (String) js("return location.hash");
  }

  /** Saves what the page looks like now as {@code target/ui-screenshots/<name>.png}. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A screenshot of the whole page, not only the window: the window is stretched to the page's
   * height for the shot, then put back.
   */
  Path fullScreenshot(String name) {
    Dimension before = driver.manage().window().getSize();
    long height = (Long) js("return Math.ceil(document.documentElement.scrollHeight)");
    size(before.getWidth(), (int) Math.min(6000, height + (before.getHeight() - innerHeight())));
    try {
      return screenshot(name);
    } finally {
      size(before.getWidth(), before.getHeight());
    }
  }

  private long innerHeight() {
    return (Long) js("return window.innerHeight");
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      service.close();
    }
  }
}
