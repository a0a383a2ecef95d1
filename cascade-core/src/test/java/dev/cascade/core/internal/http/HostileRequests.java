package dev.cascade.core.internal.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded generator of malformed requests for a set of routes: bad ids in the path, wrong methods,
 * bad and missing headers, and bodies that are broken JSON, JSON of the wrong types, huge numbers,
 * deep nesting, bytes that are no UTF-8, or too large. The same seed gives the same requests, so a
 * failure can be replayed. Nothing generated spells {@code com.}, {@code java.} or {@code
 * Exception}, so an answer that does came from the server, not from an echo of the input.
 */
final class HostileRequests {

  /** One request to send. */
  record Probe(String method, String path, Map<String, String> headers, byte[] body) {

    String describe() {
      String text = new String(body, StandardCharsets.UTF_8);
      return method
          + " "
          + path
          + " "
          + headers
          + " body["
          + body.length
          + "]="
          + (text.length() > 80 ? text.substring(0, 80) + "..." : text);
    }
  }

  /** A route of the API: its method and path template, such as {@code /api/runs/{id}}. */
  record Route(String method, String template) {}

  static final List<String> METHODS =
      List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE");

  /** Path segments that are not ids: traversal, encodings, huge, empty, odd characters. */
  static final List<String> BAD_SEGMENTS =
      List.of(
          "..",
          "%2e%2e",
          "%2e%2e%2f%2e%2e%2fetc",
          ".",
          "%00",
          "%ff%fe",
          "a".repeat(300),
          "s_" + "9".repeat(60),
          "-1",
          "1e99",
          "%20",
          "%E2%98%83",
          "r_nope",
          "s_nope",
          "null",
          "%7B%7D",
          "x%2Fy");

  /** Values a seq, a count or a tail is tried with. */
  static final List<String> BAD_NUMBERS =
      List.of(
          "-1",
          "abc",
          "99999999999999999999999",
          "1e3",
          "0x10",
          "1.5",
          "",
          "%20",
          "9223372036854775808",
          "-9223372036854775809",
          "NaN",
          "Infinity");

  /** JSON values of every type, a wrong one for most fields. */
  static final List<String> ODD_VALUES =
      List.of(
          "null",
          "true",
          "0",
          "-1",
          "1.5",
          "1e400",
          "-1e400",
          "123456789012345678901234567890",
          "\"\"",
          "\" \"",
          "\"sm_999\"",
          "\"../../etc\"",
          "\"\\u0000\"",
          "\"" + "x".repeat(5000) + "\"",
          "[]",
          "[1, 2]",
          "{}",
          "{\"a\": {\"b\": []}}");

  private final Random random;
  private final Map<String, List<String>> goodIds;
  private final Map<String, String> validBodies;

  /**
   * @param seed the seed: the same one gives the same requests
   * @param goodIds real ids per path parameter name ({@code id} on a run, a sim, a trace route)
   * @param validBodies a valid JSON body per route template, to break in every way
   */
  HostileRequests(long seed, Map<String, List<String>> goodIds, Map<String, String> validBodies) {
    this.random = new Random(seed);
    this.goodIds = goodIds;
    this.validBodies = validBodies;
  }

  /** {@code perRoute} requests for each route. */
  List<Probe> generate(List<Route> routes, int perRoute, Map<String, String> goodHeaders) {
    List<Probe> probes = new ArrayList<>();
    for (Route route : routes) {
      for (int i = 0; i < perRoute; i++) {
        probes.add(probe(route, goodHeaders));
      }
    }
    return probes;
  }

  private Probe probe(Route route, Map<String, String> goodHeaders) {
    String method = random.nextInt(5) == 0 ? pick(METHODS) : route.method();
    String path = fillPath(route.template());
    if (random.nextInt(6) == 0) {
      path +=
          "?" + pick(List.of("tail", "after", "x", "tail=", "after=")) + "=" + pick(BAD_NUMBERS);
    }
    Map<String, String> headers = headers(goodHeaders);
    byte[] body = body(route);
    return new Probe(method, path, headers, body);
  }

  private String fillPath(String template) {
    StringBuilder path = new StringBuilder();
    int at = 0;
    while (true) {
      int open = template.indexOf('{', at);
      if (open < 0) {
        path.append(template.substring(at));
        return path.toString();
      }
      int close = template.indexOf('}', open);
      path.append(template, at, open);
      String name = template.substring(open + 1, close);
      List<String> good = goodIds.getOrDefault(template + "#" + name, List.of());
      int roll = random.nextInt(10);
      if (!good.isEmpty() && roll < 5) {
        path.append(pick(good));
      } else if (name.equals("seq") && roll < 8) {
        path.append(pick(BAD_NUMBERS));
      } else {
        path.append(pick(BAD_SEGMENTS));
      }
      at = close + 1;
    }
  }

  private Map<String, String> headers(Map<String, String> goodHeaders) {
    Map<String, String> headers = new LinkedHashMap<>();
    int roll = random.nextInt(10);
    if (roll < 6) {
      headers.putAll(goodHeaders);
    } else if (roll == 6) {
      headers.put("Authorization", "Bearer");
    } else if (roll == 7) {
      headers.put("Authorization", "Bearer " + "t".repeat(4000));
    } else if (roll == 8) {
      headers.put("Authorization", pick(List.of("Basic dXNlcjpwYXNz", "bearer x y", "Token abc")));
    }
    switch (random.nextInt(8)) {
      case 0 -> headers.put("Content-Type", "text/plain");
      case 1 -> headers.put("Content-Type", "application/json; charset=latin-1");
      case 2 -> headers.put("Content-Type", "multipart/form-data; boundary=");
      case 3 -> headers.put("Accept", "text/event-stream");
      case 4 -> headers.put("Last-Event-ID", pick(BAD_NUMBERS.subList(0, 6)));
      case 5 -> headers.put("X-Odd", "v".repeat(2000));
      default -> headers.put("Content-Type", "application/json");
    }
    return headers;
  }

  private byte[] body(Route route) {
    String valid = validBodies.getOrDefault(route.template(), "{}");
    return switch (random.nextInt(12)) {
      case 0 -> new byte[0];
      case 1 -> truncate(valid);
      case 2 -> replaceAValue(valid).getBytes(StandardCharsets.UTF_8);
      case 3 -> replaceAValue(replaceAValue(valid)).getBytes(StandardCharsets.UTF_8);
      case 4 -> nested(random.nextBoolean() ? 65 : 2000);
      case 5 -> invalidUtf8();
      case 6 -> (valid + " " + valid).getBytes(StandardCharsets.UTF_8);
      case 7 -> pick(ODD_VALUES).getBytes(StandardCharsets.UTF_8);
      case 8 -> oversized();
      case 9 -> ("{\"a\": 1, \"a\": 2, " + valid.substring(1)).getBytes(StandardCharsets.UTF_8);
      case 10 -> randomBytes(1 + random.nextInt(300));
      default -> valid.getBytes(StandardCharsets.UTF_8);
    };
  }

  /** The valid body with one scalar or container value swapped for an odd one. */
  private String replaceAValue(String json) {
    List<int[]> values = new ArrayList<>();
    for (int i = json.indexOf(':'); i >= 0; i = json.indexOf(':', i + 1)) {
      int start = i + 1;
      while (start < json.length() && json.charAt(start) == ' ') {
        start++;
      }
      int end = valueEnd(json, start);
      if (end > start) {
        values.add(new int[] {start, end});
      }
    }
    if (values.isEmpty()) {
      return json;
    }
    int[] span = values.get(random.nextInt(values.size()));
    return json.substring(0, span[0]) + pick(ODD_VALUES) + json.substring(span[1]);
  }

  private static int valueEnd(String json, int start) {
    if (start >= json.length()) {
      return start;
    }
    char first = json.charAt(start);
    if (first == '"') {
      int end = start + 1;
      while (end < json.length() && json.charAt(end) != '"') {
        end += json.charAt(end) == '\\' ? 2 : 1;
      }
      return Math.min(json.length(), end + 1);
    }
    if (first == '[' || first == '{') {
      int depth = 0;
      for (int end = start; end < json.length(); end++) {
        char c = json.charAt(end);
        if (c == '[' || c == '{') {
          depth++;
        } else if (c == ']' || c == '}') {
          if (--depth == 0) {
            return end + 1;
          }
        }
      }
      return json.length();
    }
    int end = start;
    while (end < json.length() && ",}] ".indexOf(json.charAt(end)) < 0) {
      end++;
    }
    return end;
  }

  private byte[] truncate(String valid) {
    byte[] bytes = valid.getBytes(StandardCharsets.UTF_8);
    int length = bytes.length <= 1 ? 0 : random.nextInt(bytes.length - 1) + 1;
    byte[] cut = new byte[length];
    System.arraycopy(bytes, 0, cut, 0, length);
    return cut;
  }

  private static byte[] nested(int depth) {
    return ("{\"a\": " + "[".repeat(depth) + "]".repeat(depth) + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private byte[] invalidUtf8() {
    return new byte[] {
      '{',
      '"',
      't',
      'r',
      'a',
      'c',
      'e',
      '_',
      'i',
      'd',
      '"',
      ':',
      '"',
      (byte) 0xC3,
      (byte) 0x28,
      (byte) 0xFF,
      '"',
      '}'
    };
  }

  private byte[] oversized() {
    byte[] bytes = new byte[(64 << 10) + 17 + random.nextInt(1000)];
    java.util.Arrays.fill(bytes, (byte) ' ');
    bytes[0] = '{';
    bytes[bytes.length - 1] = '}';
    return bytes;
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
