package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.SimEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class EventStreamerTest {

  private static final Instant AT = Instant.parse("2026-01-02T03:04:05Z");

  @Test
  void frame_carriesIdKindAndOneDataLineWithTheEnvelope() {
    SimEvent event =
        new SimEvent(42, "r_1", "s_1", SimEvent.Kind.KERNEL, AT, "{\"name\":\"k\",\"cycles\":7}");

    String frame = new String(EventStreamer.frame(event), StandardCharsets.UTF_8);

    assertThat(frame)
        .isEqualTo(
            "id: 42\nevent: kernel\ndata: {\"event_id\":42,\"run_id\":\"r_1\",\"sim_id\":\"s_1\","
                + "\"kind\":\"kernel\",\"at\":\"2026-01-02T03:04:05Z\","
                + "\"data\":{\"name\":\"k\",\"cycles\":7}}\n\n");
  }

  @Test
  void frame_splitsLineBreaksIntoDataLinesAndQuotesIds() {
    SimEvent event = new SimEvent(7, "r_\"x", null, SimEvent.Kind.LOG, AT, "{\"lines\":\n[\"a\"]}");

    String frame = new String(EventStreamer.frame(event), StandardCharsets.UTF_8);

    assertThat(frame)
        .startsWith(
            "id: 7\nevent: log\ndata: {\"event_id\":7,\"run_id\":\"r_\\\"x\",\"sim_id\":null,")
        .contains("\"data\":{\"lines\":\ndata: [\"a\"]}}\n\n");
  }
}
