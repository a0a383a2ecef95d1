package dev.cascade.core.internal.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.javalin.http.Context;
import java.time.Instant;

/**
 * The API's one JSON mapper and how responses are written. Reading is strict: a duplicated key,
 * trailing text after the value or nesting deeper than 64 levels is malformed JSON (400), so a
 * client's mistake is never silently half-read.
 */
final class Json {

  static final String CONTENT_TYPE = "application/json; charset=utf-8";

  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(64)
                          .maxNumberLength(100)
                          .maxStringLength(1 << 20)
                          .build())
                  .build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private Json() {}

  /** Answers {@code status} with {@code body} written as JSON. */
  static void send(Context ctx, int status, Object body) {
    ctx.status(status).contentType(CONTENT_TYPE).result(bytes(body));
  }

  static byte[] bytes(Object body) {
    try {
      return MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a response could not be written as JSON", e);
    }
  }

  static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
