package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

final class JsonBodyTest {

  private static JsonBody parse(String json) {
    return JsonBody.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertRefused(
      ThrowingCallable call, ErrorCode code, String field, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining(messagePart)
        .satisfies(
            e -> {
              assertThat(((CascadeException) e).code()).isEqualTo(code);
              assertThat(((CascadeException) e).field()).isEqualTo(field);
            });
  }

  @Test
  void parse_refusesMalformedJsonAs400() {
    assertRefused(() -> parse("{"), ErrorCode.BAD_REQUEST, null, "not valid JSON");
    assertRefused(() -> parse("{} {}"), ErrorCode.BAD_REQUEST, null, "not valid JSON");
    assertRefused(
        () -> parse("{\"a\": 1, \"a\": 2}"), ErrorCode.BAD_REQUEST, null, "Duplicate field 'a'");
    assertRefused(() -> parse(" \n"), ErrorCode.BAD_REQUEST, null, "empty");
    assertRefused(
        () -> parse("[".repeat(100) + "]".repeat(100)), ErrorCode.BAD_REQUEST, null, "JSON");
  }

  @Test
  void parse_saysWhatIsWrongWithTheRequestNeverTheParser() {
    List<String> bad =
        List.of(
            "{} {}",
            "{\"a\": 1} [",
            "[".repeat(100) + "]".repeat(100),
            "{\"a\": " + "1".repeat(200) + "}",
            "{\"a\": ",
            "{\"a\": tru}",
            "{\"a\": NaN}",
            "{'a': 1}",
            "\u0000");
    for (String json : bad) {
      assertThatThrownBy(() -> parse(json))
          .as(json.length() > 40 ? json.substring(0, 40) : json)
          .isInstanceOf(CascadeException.class)
          .hasMessageStartingWith("the request body is not valid JSON")
          .message()
          .doesNotContain("com.", "java.", "jackson", "Exception", "`", "StreamReadConstraints");
    }
    assertRefused(
        () -> parse("[".repeat(100) + "]".repeat(100)),
        ErrorCode.BAD_REQUEST,
        null,
        "deeper than 64 levels");
    assertRefused(() -> parse("{} {}"), ErrorCode.BAD_REQUEST, null, "more than one JSON value");
  }

  @Test
  void parse_refusesAnythingButAnObjectAs422() {
    for (String json : List.of("[]", "1", "\"x\"", "null", "false")) {
      assertRefused(() -> parse(json), ErrorCode.INVALID, null, "must be a JSON object");
    }
  }

  @Test
  void fields_nameTheirPathInErrors() {
    JsonBody body =
        parse("{\"entries\": [{\"count\": 1}, {\"count\": \"4\", \"name\": 3}], \"n\": 1.5}");
    List<JsonBody> entries = body.requiredObjects("entries");

    assertRefused(
        () -> entries.get(1).requiredLong("count", 1, 64),
        ErrorCode.INVALID,
        "entries[1].count",
        "the string \"4\"");
    assertRefused(
        () -> entries.get(1).requiredString("name"),
        ErrorCode.INVALID,
        "entries[1].name",
        "the number 3");
    assertRefused(
        () -> entries.get(0).requiredString("gpu_config"),
        ErrorCode.INVALID,
        "entries[0].gpu_config",
        "is required");
    assertRefused(() -> body.optionalInt("n"), ErrorCode.INVALID, "n", "1.5");
    assertThat(entries.get(0).requiredLong("count", 1, 64)).isEqualTo(1);
  }

  @Test
  void wholeNumbers_mustBeInRange() {
    JsonBody body =
        parse("{\"big\": 123456789012345678901234567890, \"low\": 0, \"int\": 3000000000}");

    assertRefused(() -> body.requiredLong("big", 0, 10), ErrorCode.INVALID, "big", "0 to 10");
    assertRefused(() -> body.requiredLong("low", 1, 64), ErrorCode.INVALID, "low", "got 0");
    assertRefused(() -> body.optionalInt("int"), ErrorCode.INVALID, "int", "3000000000");
    assertThat(body.optionalLong("absent", 0, 9, 7)).isEqualTo(7);
    assertThat(body.optionalInt("absent")).isNull();
  }

  @Test
  void arrays_mustHoldObjects() {
    JsonBody body = parse("{\"a\": {}, \"b\": [1], \"c\": null}");

    assertRefused(() -> body.requiredObjects("a"), ErrorCode.INVALID, "a", "an object");
    assertRefused(() -> body.requiredObjects("b"), ErrorCode.INVALID, "b[0]", "the number 1");
    assertRefused(() -> body.requiredObjects("c"), ErrorCode.INVALID, "c", "is required");
  }

  @Test
  void optionalStrings_acceptNullAndRefuseOtherTypes() {
    JsonBody body = parse("{\"error\": null, \"bad\": []}");

    assertThat(body.optionalString("error")).isNull();
    assertThat(body.optionalString("absent")).isNull();
    assertRefused(() -> body.optionalString("bad"), ErrorCode.INVALID, "bad", "an array");
  }
}
