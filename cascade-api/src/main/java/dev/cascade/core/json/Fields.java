package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reading one field of an API object, strictly where the API always writes it: a missing required
 * field or a value of the wrong type is an {@link IllegalArgumentException} naming the object and
 * the field, never a silent default.
 */
final class Fields {

  private final JsonNode node;
  private final String what;

  private Fields(JsonNode node, String what) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException(
          what + " must be a JSON object; got " + (node == null ? "nothing" : node.getNodeType()));
    }
    this.node = node;
    this.what = what;
  }

  /** The fields of {@code node}, an object that messages call {@code what} ("a sim"). */
  static Fields of(JsonNode node, String what) {
    return new Fields(node, what);
  }

  String text(String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw wrong(field, "a string");
    }
    return value.asText();
  }

  /** The text, or null when the field is missing or null. */
  String textOrNull(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw wrong(field, "a string or null");
    }
    return value.asText();
  }

  long whole(String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isIntegralNumber()) {
      throw wrong(field, "a whole number");
    }
    return value.asLong();
  }

  int integer(String field) {
    return Math.toIntExact(whole(field));
  }

  /** The whole number, or {@code fallback} when the field is missing (an older server). */
  int integer(String field, int fallback) {
    return node.has(field) ? integer(field) : fallback;
  }

  Long wholeOrNull(String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : whole(field);
  }

  double number(String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isNumber()) {
      throw wrong(field, "a number");
    }
    return value.asDouble();
  }

  Double numberOrNull(String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : number(field);
  }

  boolean bool(String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isBoolean()) {
      throw wrong(field, "true or false");
    }
    return value.asBoolean();
  }

  Instant time(String field) {
    Instant time = timeOrNull(field);
    if (time == null) {
      throw wrong(field, "an ISO-8601 time");
    }
    return time;
  }

  Instant timeOrNull(String field) {
    String text = textOrNull(field);
    try {
      return text == null ? null : Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw wrong(field, "an ISO-8601 time such as 2026-11-29T22:50:28.123Z");
    }
  }

  JsonNode object(String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isObject()) {
      throw wrong(field, "an object");
    }
    return value;
  }

  /** Each item of the array {@code field}, read by {@code read}; empty when it is missing. */
  <T> List<T> list(String field, Function<JsonNode, T> read) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return List.of();
    }
    if (!value.isArray()) {
      throw wrong(field, "an array");
    }
    List<T> items = new ArrayList<>(value.size());
    value.forEach(item -> items.add(read.apply(item)));
    return items;
  }

  List<String> texts(String field) {
    return list(field, item -> item.isTextual() ? item.asText() : throwWrong(field, "strings"));
  }

  List<Double> numbers(String field) {
    return list(field, item -> item.isNumber() ? item.asDouble() : throwWrong(field, "numbers"));
  }

  List<Integer> integers(String field) {
    return list(
        field, item -> item.isIntegralNumber() ? item.asInt() : throwWrong(field, "whole numbers"));
  }

  /**
   * The object {@code field} of numbers, in its order: {@link Long} for whole numbers, {@link
   * Double} for the others, as Cascade holds statistics; empty when it is missing.
   */
  Map<String, Number> numberMap(String field) {
    JsonNode value = node.get(field);
    Map<String, Number> numbers = new LinkedHashMap<>();
    if (value == null || value.isNull()) {
      return numbers;
    }
    if (!value.isObject()) {
      throw wrong(field, "an object of numbers");
    }
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      JsonNode number = entry.getValue();
      if (!number.isNumber()) {
        throw wrong(field + "." + entry.getKey(), "a number");
      }
      // Not a ?: of long and double, which would make every value a double.
      Number read;
      if (number.isIntegralNumber()) {
        read = number.asLong();
      } else {
        read = number.doubleValue();
      }
      numbers.put(entry.getKey(), read);
    }
    return numbers;
  }

  private <T> T throwWrong(String field, String expected) {
    throw wrong(field, "an array of " + expected);
  }

  private IllegalArgumentException wrong(String field, String expected) {
    JsonNode value = node.get(field);
    return new IllegalArgumentException(
        what
            + " must have \""
            + field
            + "\" as "
            + expected
            + "; got "
            + (value == null ? "no such field" : shorten(value.toString())));
  }

  private static String shorten(String text) {
    return text.length() > 60 ? text.substring(0, 60) + "..." : text;
  }
}
