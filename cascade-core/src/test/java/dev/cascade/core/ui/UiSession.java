package dev.cascade.core.ui;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * What every browser test starts: a {@link UiServer} whose sims are sim agents, and a {@link
 * Browser} with its own profile, both in {@code dir}. Skips the test (JUnit assumption) when no
 * browser is installed or the local launcher cannot run here. Closing stops the browser, then the
 * server and its sims.
 */
record UiSession(UiServer server, Browser browser) implements AutoCloseable {

  /** Starts both; {@code token} is the server's token, or null for none. */
  static UiSession start(Path dir, String token) throws IOException {
    Browser.assumeInstalled();
    Assumptions.assumeFalse(
        UiServer.launcherUnavailable(),
        "the local launcher cannot run here: " + UiServer.launcherUnavailableReason());
    UiServer server = UiServer.start(dir.resolve("server"), token);
    try {
      return new UiSession(server, Browser.start(dir.resolve("profile")));
    } catch (RuntimeException e) {
      // No browser after all: the server's sims must not outlive the test.
      server.close();
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      browser.close();
    } finally {
      server.close();
    }
  }
}
