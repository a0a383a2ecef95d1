package dev.cascade.core;

/**
 * Shortens a demangled C++ name for people, step by step until it fits {@value #MAX} characters:
 * drop the parameter list, then the return type, then fold template arguments to {@code <…>}, then
 * keep only the last two scopes of the qualified name. A name still too long is cut in the middle.
 */
final class KernelNameShortener {

  static final int MAX = 64;

  private KernelNameShortener() {}

  static String shorten(String name) {
    String shown = name;
    if (shown.length() <= MAX) {
      return shown;
    }
    shown = dropParameters(shown);
    if (shown.length() > MAX) {
      shown = dropReturnType(shown);
    }
    if (shown.length() > MAX) {
      shown = foldTemplates(shown);
    }
    if (shown.length() > MAX) {
      shown = lastScopes(shown, 2);
    }
    if (shown.length() > MAX) {
      int head = (MAX - 1) * 2 / 3;
      shown = shown.substring(0, head) + "…" + shown.substring(shown.length() - (MAX - 1 - head));
    }
    return shown;
  }

  /** {@code f<int>(float*, int)} becomes {@code f<int>}: the last top-level parentheses go. */
  static String dropParameters(String name) {
    if (!name.endsWith(")")) {
      return name;
    }
    int depth = 0;
    for (int i = name.length() - 1; i >= 0; i--) {
      char c = name.charAt(i);
      if (c == ')') {
        depth++;
      } else if (c == '(' && --depth == 0) {
        // "(anonymous namespace)" is a scope, not a parameter list
        return i == 0 ? name : name.substring(0, i);
      }
    }
    return name;
  }

  /**
   * {@code void ns::f<…>} becomes {@code ns::f<…>}: a space outside brackets ends a return type.
   */
  static String dropReturnType(String name) {
    int depth = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '<' || c == '(') {
        depth++;
      } else if (c == '>' || c == ')') {
        depth--;
      } else if (c == ' ' && depth == 0) {
        return name.substring(i + 1);
      }
    }
    return name;
  }

  /** Every outermost {@code <...>} becomes {@code <…>}. */
  static String foldTemplates(String name) {
    StringBuilder out = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '<') {
        if (depth++ == 0) {
          out.append("<…");
        }
      } else if (c == '>' && depth > 0) {
        if (--depth == 0) {
          out.append('>');
        }
      } else if (depth == 0) {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** The last {@code keep} scopes of {@code a::b::c::d}: {@code c::d}. */
  static String lastScopes(String name, int keep) {
    int depth = 0;
    int found = 0;
    for (int i = name.length() - 1; i > 0; i--) {
      char c = name.charAt(i);
      if (c == '>' || c == ')') {
        depth++;
      } else if (c == '<' || c == '(') {
        depth--;
      } else if (depth == 0 && c == ':' && name.charAt(i - 1) == ':' && ++found == keep) {
        return name.substring(i + 1);
      }
    }
    return name;
  }
}
