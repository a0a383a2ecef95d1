package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A browser test that cannot run says what is missing and how to install it. */
final class BrowserSkipTest {

  @Test
  void missingMessage_namesWhatIsMissingAndTheInstallCommand() {
    String message = Browser.missingMessage(List.of("/usr/bin/chromedriver"));

    assertThat(message)
        .contains("missing /usr/bin/chromedriver")
        .doesNotContain("missing /usr/bin/chromium ")
        .contains("apt-get install -y chromium chromium-driver");
  }
}
