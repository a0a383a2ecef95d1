package dev.cascade.core.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Sampling;
import dev.cascade.core.TimeLimit;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON object from a request, read with precise errors: malformed JSON is 400; a value of the
 * wrong type, missing or out of range is 422 naming the field by its path ({@code trace_id}, {@code
 * entries[1].count}). Fields the API does not know are ignored, so older servers accept requests
 * from newer clients.
 */
final class JsonBody {

  private final JsonNode node;
  private final String path;

  private JsonBody(JsonNode node, String path) {
    this.node = node;
    this.path = path;
  }

  /** The request's body, which must be one JSON object of at most {@code limit} bytes. */
  static JsonBody read(Context ctx, int limit) {
    return parse(BoundedBody.read(ctx, limit, "a JSON body"));
  }

  /** Parses {@code bytes}, which must hold one JSON object. */
  static JsonBody parse(byte[] bytes) {
    if (isBlank(bytes)) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST, "the request body is empty; send a JSON object", null);
    }
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST, "the request body is not valid JSON: " + JsonProblems.of(e), null);
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST, "the request body could not be read; send it again", null);
    }
    if (node == null || !node.isObject()) {
      throw new CascadeException(
          ErrorCode.INVALID, "the request body must be a JSON object; got " + describe(node), null);
    }
    return new JsonBody(node, "");
  }

  /** The path of a field of this object, as errors name it. */
  String pathOf(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** A string that must be present and not blank. */
  String requiredString(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      throw invalid(name, "is required: give a string");
    }
    if (!value.isTextual()) {
      throw invalid(name, "must be a string; got " + describe(value));
    }
    if (value.textValue().isBlank()) {
      throw invalid(name, "must not be blank");
    }
    return value.textValue();
  }

  /** A string, or null when absent or null. */
  String optionalString(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw invalid(name, "must be a string or null; got " + describe(value));
    }
    return value.textValue();
  }

  /** True or false, or {@code absent} when absent or null. */
  boolean optionalBoolean(String name, boolean absent) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return absent;
    }
    if (!value.isBoolean()) {
      throw invalid(name, "must be true or false; got " + describe(value));
    }
    return value.booleanValue();
  }

  /** A whole number from {@code min} to {@code max} that must be present. */
  long requiredLong(String name, long min, long max) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      throw invalid(name, "is required: give a whole number from " + min + " to " + max);
    }
    return wholeNumber(name, value, min, max);
  }

  /** A whole number from {@code min} to {@code max}, or {@code absent} when absent or null. */
  long optionalLong(String name, long min, long max, long absent) {
    JsonNode value = node.get(name);
    return value == null || value.isNull() ? absent : wholeNumber(name, value, min, max);
  }

  /** A whole number that fits an int, or null when absent or null. */
  Integer optionalInt(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    return (int) wholeNumber(name, value, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  /**
   * A wall-time limit ({@link TimeLimit}): a string such as {@code "30m"} or a whole number of
   * seconds; null when absent or null.
   */
  Duration optionalTimeLimit(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    try {
      if (value.isTextual()) {
        return TimeLimit.parse(value.textValue());
      }
      if (value.isIntegralNumber() && value.canConvertToLong()) {
        return TimeLimit.requireValid(Duration.ofSeconds(value.longValue()));
      }
    } catch (IllegalArgumentException e) {
      throw invalid(name, e.getMessage());
    }
    throw invalid(
        name,
        "must be a duration such as \"30m\" or a whole number of seconds; got " + describe(value));
  }

  /**
   * An object of option names to values ({@code {"-gpgpu_n_clusters": "54"}}), in order; a number
   * is taken as its text. Empty when absent or null.
   */
  java.util.Map<String, String> optionalValueMap(String name) {
    JsonNode value = node.get(name);
    java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
    if (value == null || value.isNull()) {
      return values;
    }
    if (!value.isObject()) {
      throw invalid(
          name,
          "must be an object of option names to values, such as {\"-gpgpu_n_clusters\": \"54\"};"
              + " got "
              + describe(value));
    }
    for (var field : value.properties()) {
      values.put(field.getKey(), scalar(name, field.getKey(), field.getValue()));
    }
    return values;
  }

  /**
   * An object of option names to arrays of values ({@code {"-gpgpu_n_clusters": ["54", "108"]}}),
   * in order. Empty when absent or null.
   */
  java.util.Map<String, List<String>> optionalValueListMap(String name) {
    JsonNode value = node.get(name);
    java.util.Map<String, List<String>> values = new java.util.LinkedHashMap<>();
    if (value == null || value.isNull()) {
      return values;
    }
    if (!value.isObject()) {
      throw invalid(
          name,
          "must be an object of option names to arrays of values, such as"
              + " {\"-gpgpu_n_clusters\": [\"54\", \"108\"]}; got "
              + describe(value));
    }
    for (var field : value.properties()) {
      if (!field.getValue().isArray()) {
        throw invalid(
            name + "." + field.getKey(),
            "must be an array of values, such as [\"54\", \"108\"]; got "
                + describe(field.getValue()));
      }
      List<String> list = new ArrayList<>();
      for (JsonNode item : field.getValue()) {
        list.add(scalar(name, field.getKey(), item));
      }
      values.put(field.getKey(), list);
    }
    return values;
  }

  private String scalar(String name, String key, JsonNode item) {
    if (item.isTextual()) {
      return item.textValue();
    }
    if (item.isNumber()) {
      return item.asText();
    }
    throw invalid(name + "." + key, "must be a string or a number; got " + describe(item));
  }

  /**
   * An entry's {@code sampling}: absent, null or {@code false} for none, {@code true} for the
   * defaults, or {@code {"target_error", "budget", "method", "validate"}}, each optional.
   */
  Sampling optionalSampling(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull() || (value.isBoolean() && !value.booleanValue())) {
      return null;
    }
    if (value.isBoolean()) {
      return Sampling.defaults();
    }
    if (!value.isObject()) {
      throw invalid(
          name,
          "must be true or an object such as {\"target_error\": 0.05}; got " + describe(value));
    }
    JsonBody fields = new JsonBody(value, pathOf(name));
    JsonNode target = value.get("target_error");
    if (target != null && !target.isNull() && !target.isNumber()) {
      throw fields.invalid(
          "target_error", "must be a fraction such as 0.05; got " + describe(target));
    }
    Integer budget = fields.optionalInt("budget");
    String method = fields.optionalString("method");
    boolean validate = fields.optionalBoolean("validate", false);
    try {
      return new Sampling(
          target == null || target.isNull() ? Sampling.DEFAULT_TARGET_ERROR : target.doubleValue(),
          budget,
          method,
          validate,
          null);
    } catch (IllegalArgumentException e) {
      String field =
          e.getMessage().contains("target_error")
              ? "target_error"
              : e.getMessage().contains("budget") ? "budget" : "method";
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), fields.pathOf(field));
    }
  }

  /** An array of JSON objects that must be present (it may be empty). */
  List<JsonBody> requiredObjects(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      throw invalid(name, "is required: give an array of objects");
    }
    if (!value.isArray()) {
      throw invalid(name, "must be an array of objects; got " + describe(value));
    }
    List<JsonBody> items = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      String itemPath = pathOf(name) + "[" + i + "]";
      JsonNode item = value.get(i);
      if (!item.isObject()) {
        throw new CascadeException(
            ErrorCode.INVALID, itemPath + " must be an object; got " + describe(item), itemPath);
      }
      items.add(new JsonBody(item, itemPath));
    }
    return items;
  }

  private long wholeNumber(String name, JsonNode value, long min, long max) {
    String range = "a whole number from " + min + " to " + max;
    if (!value.isNumber()) {
      throw invalid(name, "must be " + range + "; got " + describe(value));
    }
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw invalid(name, "must be " + range + "; got " + value.asText());
    }
    long number = value.longValue();
    if (number < min || number > max) {
      throw invalid(name, "must be " + range + "; got " + number);
    }
    return number;
  }

  private CascadeException invalid(String name, String problem) {
    String field = pathOf(name);
    return new CascadeException(ErrorCode.INVALID, field + " " + problem, field);
  }

  /** A value as a person would name it in a message: its type, and its text when short. */
  static String describe(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return "nothing";
    }
    if (value.isNull()) {
      return "null";
    }
    if (value.isTextual()) {
      String text = value.textValue();
      return "the string \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
    }
    if (value.isNumber()) {
      return "the number " + value.asText();
    }
    if (value.isBoolean()) {
      return value.asText();
    }
    return value.isArray() ? "an array" : "an object";
  }

  private static boolean isBlank(byte[] bytes) {
    for (byte b : bytes) {
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return true;
  }
}
