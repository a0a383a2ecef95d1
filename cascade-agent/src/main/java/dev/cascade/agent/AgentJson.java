package dev.cascade.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the sim agent speaks, by hand so its JVM loads no JSON library: it writes
 * heartbeats and reads the app's replies ({@code {"cancel": bool, "missing": [seq, ...]}}). The
 * reader is a small but complete JSON parser, so it does not care about key order, spacing or keys
 * it does not know.
 */
final class AgentJson {

  private AgentJson() {}

  /**
   * A heartbeat: {@code {"state": ..., "chunks": n}} plus {@code "error"} and {@code "exit_code"}
   * when given.
   */
  public static String heartbeat(String state, String error, Integer exitCode, long chunks) {
    return heartbeat(state, error, exitCode, chunks, 0);
  }

  /** As above, with {@code "peak_memory_bytes"} when {@code peakMemoryBytes} is above 0. */
  public static String heartbeat(
      String state, String error, Integer exitCode, long chunks, long peakMemoryBytes) {
    StringBuilder out = new StringBuilder(64 + (error == null ? 0 : error.length() + 16));
    out.append("{\"state\":");
    string(out, state);
    if (error != null) {
      out.append(",\"error\":");
      string(out, error);
    }
    if (exitCode != null) {
      out.append(",\"exit_code\":").append(exitCode.intValue());
    }
    if (peakMemoryBytes > 0) {
      out.append(",\"peak_memory_bytes\":").append(peakMemoryBytes);
    }
    out.append(",\"chunks\":").append(chunks).append('}');
    return out.toString();
  }

  /**
   * The app's answer to a heartbeat.
   *
   * @param cancel true when the sim should stop
   * @param missing chunks the app lacks, for a final heartbeat
   */
  public record Reply(boolean cancel, List<Long> missing) {
    public Reply {
      missing = List.copyOf(missing);
    }
  }

  /**
   * Reads a heartbeat reply; a body that is not a JSON object, or has no {@code cancel}, is taken
   * as {@code cancel: false} with nothing missing.
   *
   * @throws IllegalArgumentException when the body is not JSON at all
   */
  public static Reply reply(String body) {
    Object value = parse(body);
    if (!(value instanceof Map<?, ?> object)) {
      return new Reply(false, List.of());
    }
    boolean cancel = Boolean.TRUE.equals(object.get("cancel"));
    List<Long> missing = new ArrayList<>();
    if (object.get("missing") instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Long seq && seq >= 0) {
          missing.add(seq);
        } else if (item instanceof Double d && d >= 0 && d == Math.rint(d)) {
          missing.add(d.longValue());
        }
      }
    }
    return new Reply(cancel, missing);
  }

  /** Appends {@code text} as a JSON string. */
  static void string(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * Parses one JSON value: objects become maps (in order), arrays lists, integers {@link Long},
   * other numbers {@link Double}, and {@code true}, {@code false}, {@code null} themselves.
   *
   * @throws IllegalArgumentException when {@code text} is not one JSON value
   */
  static Object parse(String text) {
    Parser parser = new Parser(text);
    parser.blanks();
    Object value = parser.value(0);
    parser.blanks();
    if (parser.at < text.length()) {
      throw parser.error("text after the JSON value");
    }
    return value;
  }

  private static final class Parser {
    private static final int MAX_DEPTH = 64;
    private final String text;
    private int at;

    Parser(String text) {
      this.text = text;
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nesting deeper than " + MAX_DEPTH);
      }
      if (at >= text.length()) {
        throw error("a value");
      }
      char c = text.charAt(at);
      return switch (c) {
        case '{' -> object(depth);
        case '[' -> array(depth);
        case '"' -> string();
        case 't' -> literal("true", Boolean.TRUE);
        case 'f' -> literal("false", Boolean.FALSE);
        case 'n' -> literal("null", null);
        default -> number();
      };
    }

    private Map<String, Object> object(int depth) {
      Map<String, Object> map = new LinkedHashMap<>();
      at++;
      blanks();
      if (peek() == '}') {
        at++;
        return map;
      }
      while (true) {
        blanks();
        if (peek() != '"') {
          throw error("a key in quotes");
        }
        String key = string();
        blanks();
        expect(':');
        blanks();
        map.put(key, value(depth + 1));
        blanks();
        char c = next();
        if (c == '}') {
          return map;
        }
        if (c != ',') {
          throw error("',' or '}'");
        }
      }
    }

    private List<Object> array(int depth) {
      List<Object> list = new ArrayList<>();
      at++;
      blanks();
      if (peek() == ']') {
        at++;
        return list;
      }
      while (true) {
        blanks();
        list.add(value(depth + 1));
        blanks();
        char c = next();
        if (c == ']') {
          return list;
        }
        if (c != ',') {
          throw error("',' or ']'");
        }
      }
    }

    private String string() {
      at++;
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return out.toString();
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (at + 4 > text.length()) {
              throw error("four hex digits");
            }
            try {
              out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("four hex digits");
            }
            at += 4;
          }
          default -> throw error("an escape");
        }
      }
    }

    private Object literal(String word, Object value) {
      if (!text.startsWith(word, at)) {
        throw error("'" + word + "'");
      }
      at += word.length();
      return value;
    }

    private Object number() {
      int start = at;
      while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
      String number = text.substring(start, at);
      if (number.isEmpty()) {
        throw error("a value");
      }
      try {
        if (number.indexOf('.') < 0 && number.indexOf('e') < 0 && number.indexOf('E') < 0) {
          return Long.parseLong(number);
        }
        return Double.parseDouble(number);
      } catch (NumberFormatException e) {
        throw error("a number");
      }
    }

    void blanks() {
      while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
    }

    private char peek() {
      return at < text.length() ? text.charAt(at) : '\0';
    }

    private char next() {
      if (at >= text.length()) {
        throw error("more JSON");
      }
      return text.charAt(at++);
    }

    private void expect(char c) {
      if (next() != c) {
        at--;
        throw error("'" + c + "'");
      }
    }

    IllegalArgumentException error(String expected) {
      return new IllegalArgumentException(
          "not JSON: expected " + expected + " at character " + at + " of the reply");
    }
  }
}
