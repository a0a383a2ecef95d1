package dev.cascade.core.internal.run;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a mistyped one most likely meant: the same but for case ({@code sm90_h100}), or at
 * most two letters apart ({@code SM90_H1000}), so an error can say "did you mean SM90_H100" instead
 * of listing every name.
 */
final class NameSuggestions {

  /** Letters that may differ, after case, for a name to count as a typo of another. */
  static final int MAX_EDITS = 2;

  private NameSuggestions() {}

  /**
   * The closest of {@code known} to {@code typed}, when one is close enough; the first on a tie.
   */
  static Optional<String> closest(String typed, Collection<String> known) {
    String wanted = typed.strip().toLowerCase(Locale.ROOT);
    String best = null;
    int bestEdits = MAX_EDITS + 1;
    for (String name : known) {
      int edits = edits(wanted, name.toLowerCase(Locale.ROOT));
      if (edits < bestEdits) {
        best = name;
        bestEdits = edits;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Levenshtein distance: insertions, deletions and substitutions. */
  static int edits(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
