package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class AgentJsonTest {

  @Test
  void heartbeat_writesOnlyWhatItHas() {
    assertThat(AgentJson.heartbeat("running", null, null, 12))
        .isEqualTo("{\"state\":\"running\",\"chunks\":12}");
    assertThat(AgentJson.heartbeat("failed", "exit \"1\"\n\\ \u0001", 1, 3))
        .isEqualTo(
            "{\"state\":\"failed\",\"error\":\"exit \\\"1\\\"\\n\\\\ \\u0001\",\"exit_code\":1,"
                + "\"chunks\":3}");
  }

  @Test
  void heartbeat_carriesThePeakMemory_onlyOnceOneWasMeasured() {
    assertThat(AgentJson.heartbeat("running", null, null, 12, 0))
        .isEqualTo("{\"state\":\"running\",\"chunks\":12}");
    assertThat(AgentJson.heartbeat("running", null, null, 12, 104_857_600))
        .isEqualTo("{\"state\":\"running\",\"peak_memory_bytes\":104857600,\"chunks\":12}");
  }

  @Test
  void heartbeat_roundTripsThroughTheParser() {
    String error = "unsupported binary version: 90 \u00e9\t\"quoted\"";

    Object parsed = AgentJson.parse(AgentJson.heartbeat("failed", error, 0, 7));

    assertThat(parsed)
        .isEqualTo(Map.of("state", "failed", "error", error, "exit_code", 0L, "chunks", 7L));
  }

  @Test
  void reply_readsCancelAndMissingInAnyOrderAndSpacing() {
    assertThat(AgentJson.reply("{\"cancel\":true}"))
        .isEqualTo(new AgentJson.Reply(true, List.of()));
    assertThat(
            AgentJson.reply(
                " { \"missing\" : [ 3, 5 ] , \"cancel\" : false, \"x\": {\"y\": [null]} } "))
        .isEqualTo(new AgentJson.Reply(false, List.of(3L, 5L)));
    assertThat(AgentJson.reply("[]")).isEqualTo(new AgentJson.Reply(false, List.of()));
  }

  @Test
  void reply_rejectsWhatIsNotJson() {
    assertThatThrownBy(() -> AgentJson.reply("<html>bad gateway</html>"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> AgentJson.reply("{\"cancel\": true} trailing"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
