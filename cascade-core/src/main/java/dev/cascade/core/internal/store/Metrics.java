package dev.cascade.core.internal.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/** A sim's latest metrics as the JSON object kept in {@code sims.latest_metrics}. */
public final class Metrics {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Metrics() {}

  public static String toJson(Map<String, Number> metrics) {
    try {
      return JSON.writeValueAsString(metrics);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("metrics cannot be written as JSON: " + metrics, e);
    }
  }

  /** The metrics in {@code json}; empty for null or anything that is not an object of numbers. */
  public static Map<String, Number> fromJson(String json) {
    Map<String, Number> metrics = new LinkedHashMap<>();
    if (json == null) {
      return metrics;
    }
    try {
      JsonNode node = JSON.readTree(json);
      node.properties()
          .forEach(
              field -> {
                if (field.getValue().isNumber()) {
                  metrics.put(field.getKey(), field.getValue().numberValue());
                }
              });
    } catch (JsonProcessingException e) {
      // A damaged column shows as no metrics rather than failing every read of the sim.
    }
    return metrics;
  }
}
