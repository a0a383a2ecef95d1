package dev.cascade.core.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Java source text split into what source-reading rules look at: the string literals and text
 * blocks (a statement's SQL, an environment variable's name) and the code around them (a call to
 * {@code System.getenv}, a {@code +}). Comments are neither, so prose that mentions a name or a
 * statement never breaks a rule.
 */
public final class JavaSource {

  /** Two literals joined by {@code +} and nothing else: one string split over lines. */
  private static final Pattern ONLY_PLUS = Pattern.compile("\\s*\\+\\s*");

  private JavaSource() {}

  /**
   * One string literal or text block: its text (escapes left as written, a text block's leading
   * white space stripped) and where it stands in the source, {@code start} at its opening quote and
   * {@code end} just past its closing one.
   */
  public record Literal(String text, int start, int end) {}

  /** The text of every string literal and text block in {@code source}, in order. */
  public static List<String> literalsIn(String source) {
    return literals(source).stream().map(Literal::text).toList();
  }

  /**
   * Like {@link #literalsIn}, but literals joined by {@code +} alone count as one, so a statement
   * split over lines ({@code "SELECT id FROM sims" + " WHERE id = ?"}) reads whole.
   */
  public static List<String> joinedLiteralsIn(String source) {
    List<String> joined = new ArrayList<>();
    Literal previous = null;
    for (Literal literal : literals(source)) {
      if (previous != null
          && ONLY_PLUS.matcher(source.substring(previous.end(), literal.start())).matches()) {
        joined.set(joined.size() - 1, joined.getLast() + literal.text());
      } else {
        joined.add(literal.text());
      }
      previous = literal;
    }
    return joined;
  }

  /**
   * The code of {@code source}: comments removed and every literal emptied to {@code ""}, so a
   * pattern that looks for a call never matches a word in prose or in a message.
   */
  public static String codeOf(String source) {
    StringBuilder code = new StringBuilder();
    int from = 0;
    for (Literal literal : literals(source)) {
      code.append(withoutComments(source.substring(from, literal.start()))).append("\"\"");
      from = literal.end();
    }
    return code.append(withoutComments(source.substring(from))).toString();
  }

  /**
   * Every string literal and text block in {@code source}, skipping comments and character
   * literals.
   */
  public static List<Literal> literals(String source) {
    List<Literal> literals = new ArrayList<>();
    int i = 0;
    while (i < source.length()) {
      if (source.startsWith("//", i)) {
        i = end(source.indexOf('\n', i), source);
      } else if (source.startsWith("/*", i)) {
        i = Math.min(end(source.indexOf("*/", i + 2), source) + 2, source.length());
      } else if (source.startsWith("\"\"\"", i)) {
        int close = end(source.indexOf("\"\"\"", i + 3), source);
        while (close < source.length() && source.charAt(close - 1) == '\\') {
          close = end(source.indexOf("\"\"\"", close + 1), source);
        }
        int after = Math.min(close + 3, source.length());
        literals.add(new Literal(source.substring(i + 3, close).strip(), i, after));
        i = after;
      } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
        char quote = source.charAt(i);
        int j = i + 1;
        while (j < source.length() && source.charAt(j) != quote) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        int after = Math.min(j + 1, source.length());
        if (quote == '"') {
          literals.add(
              new Literal(source.substring(i + 1, Math.min(j, source.length())), i, after));
        }
        i = after;
      } else {
        i++;
      }
    }
    return literals;
  }

  /** {@code text} (code between two literals, or after the last) without its comments. */
  private static String withoutComments(String text) {
    return text.replaceAll("(?s)/\\*.*?(?:\\*/|$)", " ").replaceAll("//[^\\n]*", " ");
  }

  private static int end(int index, String source) {
    return index < 0 ? source.length() : index;
  }
}
