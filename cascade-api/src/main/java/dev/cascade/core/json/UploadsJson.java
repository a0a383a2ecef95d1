package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.TraceUploads;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /api/uploads}: {@code {"s3_endpoint", "bucket", "prefix"}}, for server and client. */
public final class UploadsJson {

  private UploadsJson() {}

  public static Map<String, Object> write(TraceUploads uploads) {
    Map<String, Object> wire = new LinkedHashMap<>();
    wire.put("s3_endpoint", uploads.endpoint());
    wire.put("bucket", uploads.bucket());
    wire.put("prefix", uploads.prefix());
    return wire;
  }

  /** The uploads a server described; an {@link IllegalArgumentException} naming a bad field. */
  public static TraceUploads read(JsonNode node) {
    return new TraceUploads(text(node, "s3_endpoint"), text(node, "bucket"), text(node, "prefix"));
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    if (!value.isTextual()) {
      throw new IllegalArgumentException(
          "the server's uploads have no text " + field + "; got " + value);
    }
    return value.textValue();
  }
}
