package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class EmbeddedS3Test {

  @Test
  void builder_rejectsBadSettingsAtOnce() {
    assertThatThrownBy(() -> EmbeddedS3.builder().port(65536))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("65536");
    assertThatThrownBy(() -> EmbeddedS3.builder().bind(" "))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("bind");
    assertThatThrownBy(() -> EmbeddedS3.builder().bind("no such host.invalid"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"no such host.invalid\"");
    assertThatThrownBy(() -> EmbeddedS3.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dataDir");
    assertThatThrownBy(() -> EmbeddedS3.builder().dataDir(Path.of("x")).build().endpoint())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("start()");
  }
}
