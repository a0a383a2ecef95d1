package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

final class TraceTest {

  private static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"..", ".", "a/b", "../x", "a\\b", "a b", "trace\n", "é"})
  void requireValidId_refusesUnsafeIdsNamingTheValue(String id) {
    assertThat(Trace.isValidId(id)).isFalse();
    assertThatThrownBy(() -> Trace.requireValidId(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("trace id \"" + id + "\"");
  }

  @Test
  void requireValidId_refuses201Characters() {
    String id = "a".repeat(201);

    assertThatThrownBy(() -> Trace.requireValidId(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(id)
        .hasMessageContaining("1 to 200 characters");
  }

  @Test
  void requireValidId_accepts200Characters() {
    String id = "a".repeat(200);

    assertThat(Trace.requireValidId(id)).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "20261107-120000__facebook_opt-125m__model.decoder.layers.10.self_attn",
        "a",
        "...",
        ".hidden",
        "A-Z_0.9"
      })
  void requireValidId_acceptsProfilerRunNames(String id) {
    assertThat(Trace.requireValidId(id)).isEqualTo(id);
  }

  @Test
  void create_refusesAnInvalidId() {
    assertThatThrownBy(() -> trace("../x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"../x\"");
  }

  @Test
  void runnable_onlyWhenReadyAndNotASample() {
    assertThat(trace("demo").runnable()).isTrue();
    assertThat(
            new Trace(
                    "demo",
                    TraceState.READY,
                    null,
                    "sm_90",
                    null,
                    null,
                    List.of(),
                    0,
                    List.of(),
                    0,
                    true,
                    T0,
                    T0)
                .runnable())
        .isFalse();
  }

  private static Trace trace(String id) {
    return new Trace(
        id, TraceState.READY, null, "sm_90", null, null, List.of(), 0, List.of(), 0, false, T0, T0);
  }
}
