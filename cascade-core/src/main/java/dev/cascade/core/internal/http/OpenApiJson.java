package dev.cascade.core.internal.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The building blocks of the OpenAPI document: ordered JSON maps for schemas, media types and
 * parameters, so the paths and schemas read as the document they write.
 */
final class OpenApiJson {

  private OpenApiJson() {}

  /** An ordered map from alternating keys and values. */
  static Map<String, Object> map(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must pair up");
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  // --- media types and parameters -----------------------------------------------------------

  static Map<String, Object> json(Object schema) {
    return content("application/json", schema);
  }

  static Map<String, Object> content(String type, Object schema) {
    return map(type, map("schema", schema));
  }

  /** A body of plain text (a log, CSV, metrics). */
  static Map<String, Object> text(String type) {
    return content(type, map("type", "string"));
  }

  static Map<String, Object> pathParam(String name, String description) {
    return param("path", name, true, description, string());
  }

  static Map<String, Object> param(
      String in, String name, boolean required, String description, Object schema) {
    return map(
        "name", name, "in", in, "required", required, "description", description, "schema", schema);
  }

  // --- schemas --------------------------------------------------------------------------------

  static Map<String, Object> ref(String schema) {
    return map("$ref", "#/components/schemas/" + schema);
  }

  static Map<String, Object> string() {
    return map("type", "string");
  }

  static Map<String, Object> string(String description) {
    return map("type", "string", "description", description);
  }

  static Map<String, Object> integer() {
    return map("type", "integer", "format", "int64");
  }

  static Map<String, Object> integer(String description) {
    return map("type", "integer", "format", "int64", "description", description);
  }

  static Map<String, Object> number() {
    return map("type", "number");
  }

  static Map<String, Object> number(String description) {
    return map("type", "number", "description", description);
  }

  static Map<String, Object> bool() {
    return map("type", "boolean");
  }

  static Map<String, Object> time() {
    return map("type", "string", "format", "date-time");
  }

  static Map<String, Object> enumOf(String... values) {
    return map("type", "string", "enum", List.of(values));
  }

  static Map<String, Object> array(Object items) {
    return map("type", "array", "items", items);
  }

  /** A JSON object whose values all have {@code valueSchema}, such as statistics by name. */
  static Map<String, Object> mapOf(Object valueSchema) {
    return map("type", "object", "additionalProperties", valueSchema);
  }

  /** {@code schema} with a description. */
  static Map<String, Object> described(Map<String, Object> schema, String description) {
    Map<String, Object> copy = new LinkedHashMap<>(schema);
    copy.put("description", description);
    return copy;
  }

  static Map<String, Object> nullable(Map<String, Object> schema) {
    Map<String, Object> copy = new LinkedHashMap<>(schema);
    copy.put("nullable", true);
    return copy;
  }

  static Map<String, Object> object(List<String> required, Object... nameSchemaPairs) {
    return object(required, map(nameSchemaPairs));
  }

  static Map<String, Object> object(List<String> required, Map<String, Object> fields) {
    return map("type", "object", "required", required, "properties", fields);
  }
}
