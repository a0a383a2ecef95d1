package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.ServerSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ServerSettingsTest {

  @Test
  void defaults_listenOnLoopbackWithoutAToken() {
    ServerSettings settings = ServerSettings.defaults();

    assertThat(settings.bind()).isEqualTo("127.0.0.1");
    assertThat(settings.port()).isEqualTo(8080);
    assertThat(settings.hasToken()).isFalse();
    assertThat(settings.maxJsonBytes()).isEqualTo(64 * 1024);
    assertThat(settings.maxChunkBytes()).isEqualTo(8 * 1024 * 1024);
    assertThat(settings.sseKeepAlive()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void toString_neverShowsTheToken() {
    assertThat(ServerSettings.defaults().withToken("secret").toString())
        .doesNotContain("secret")
        .contains("(set)");
  }

  @Test
  void settings_refuseBadValuesNamingThem() {
    ServerSettings settings = ServerSettings.defaults();

    assertThatThrownBy(() -> settings.withPort(70000))
        .hasMessageContaining("port")
        .hasMessageContaining("70000");
    assertThatThrownBy(() -> settings.withBind(" ")).hasMessageContaining("bind");
    assertThatThrownBy(() -> settings.withToken("two words")).hasMessageContaining("token");
    assertThatThrownBy(() -> settings.withMaxJsonBytes(10)).hasMessageContaining("maxJsonBytes");
    assertThatThrownBy(() -> settings.withMaxChunkBytes(0)).hasMessageContaining("maxChunkBytes");
    assertThatThrownBy(() -> settings.withSseKeepAlive(Duration.ZERO))
        .hasMessageContaining("sseKeepAlive");
  }
}
