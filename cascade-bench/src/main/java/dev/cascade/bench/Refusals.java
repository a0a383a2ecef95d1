package dev.cascade.bench;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Why requests were not answered 2xx: statuses and exceptions, counted. Not thread-safe. */
final class Refusals {

  private final Map<String, Long> counts = new TreeMap<>();
  private long total;

  /** Counts the answer when it is not 2xx; returns true when it was 2xx. */
  boolean ok(HttpResponse<?> response, Throwable error) {
    String why;
    if (error != null) {
      Throwable cause = error.getCause() != null ? error.getCause() : error;
      why =
          cause.getClass().getSimpleName()
              + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")");
    } else if (response.statusCode() / 100 == 2) {
      return true;
    } else {
      why = "HTTP " + response.statusCode();
    }
    counts.merge(why, 1L, Long::sum);
    total++;
    return false;
  }

  long total() {
    return total;
  }

  @Override
  public String toString() {
    return total == 0
        ? "none"
        : counts.entrySet().stream()
            .map(entry -> entry.getKey() + " x" + entry.getValue())
            .collect(Collectors.joining(", "));
  }
}
