package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

final class JsonWriterTest {

  @Test
  void value_writesDecimalsInPlainShortestForm() throws IOException {
    StringWriter text = new StringWriter();
    JsonWriter json = new JsonWriter(text);
    json.beginArray();
    for (double value :
        new double[] {
          0.000025, 3.0, -12.5, 0.1, 124150.0, 22.965562623382322, 1e20, Double.NaN, 0.0
        }) {
      json.value(value);
    }
    json.value(Long.MIN_VALUE);
    json.value(-7L);
    json.endArray();
    json.flush();

    assertThat(text.toString())
        .isEqualTo(
            "[0.000025,3.0,-12.5,0.1,124150.0,22.965562623382322,1.0E20,null,0.0,"
                + Long.MIN_VALUE
                + ",-7]");
  }

  @Test
  void field_writesNameAndValue_cachedNameEscapesOnce() throws IOException {
    StringWriter text = new StringWriter();
    JsonWriter json = new JsonWriter(text);
    String key = "a\"b";
    json.beginObject();
    json.field("s", "x\u0001\u2028\u2029");
    json.field("n", (String) null);
    json.field("l", 3L);
    json.cachedName(key);
    json.value(1L);
    json.cachedName(key);
    json.value(2L);
    json.endObject();
    json.flush();

    assertThat(text.toString())
        .isEqualTo(
            "{\"s\":\"x\\u0001\\u2028\\u2029\",\"n\":null,\"l\":3,\"a\\\"b\":1,\"a\\\"b\":2}");
  }

  @Test
  void value_longerThanTheBuffer_goesStraightThrough() throws IOException {
    StringWriter text = new StringWriter();
    JsonWriter json = new JsonWriter(text);
    String huge = "k".repeat(100_000);
    json.beginArray();
    json.value(1L);
    json.value(huge);
    json.endArray();
    json.flush();

    assertThat(text.toString()).isEqualTo("[1,\"" + huge + "\"]");
  }
}
