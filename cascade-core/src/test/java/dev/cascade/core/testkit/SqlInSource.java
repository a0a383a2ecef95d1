package dev.cascade.core.testkit;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL in a Java source: every string literal or text block (literals joined by {@code +} read
 * as one) that holds a statement, in any letter case, and the tables those statements name. For
 * {@code TableOwnershipTest}'s rule that only a table's repository speaks SQL about it.
 */
public final class SqlInSource {

  /**
   * The start of a statement, in any case: {@code select ... from}, {@code insert into}, {@code
   * update t set}, {@code delete from}, {@code create table/index}, {@code alter table}, {@code
   * drop table}. A message such as "read from sims" has none of them.
   */
  private static final Pattern STATEMENT =
      Pattern.compile(
          "\\b(?:select\\b.*?\\bfrom\\s+\\w+"
              + "|insert\\s+(?:or\\s+\\w+\\s+)?into\\s+\\w+"
              + "|update\\s+\\w+\\s+set\\b"
              + "|delete\\s+from\\s+\\w+"
              + "|create\\s+(?:unique\\s+)?(?:table|index)\\b"
              + "|alter\\s+table\\s+\\w+"
              + "|drop\\s+(?:table|index)\\b)",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /** A table named in a statement: {@code FROM sims}, {@code JOIN sims}, {@code INTO}, ... */
  private static final Pattern TABLE =
      Pattern.compile(
          "\\b(?:from|join|into|update|table(?:\\s+if\\s+(?:not\\s+)?exists)?)\\s+(\\w+)",
          Pattern.CASE_INSENSITIVE);

  private SqlInSource() {}

  /** The statements in {@code source}'s literals and text blocks, in order. */
  public static List<String> statementsIn(String source) {
    return JavaSource.joinedLiteralsIn(source).stream()
        .filter(text -> STATEMENT.matcher(text).find())
        .toList();
  }

  /** The tables {@code source}'s statements name, in lower case. */
  public static Set<String> tablesIn(String source) {
    Set<String> tables = new TreeSet<>();
    for (String statement : statementsIn(source)) {
      Matcher table = TABLE.matcher(statement);
      while (table.find()) {
        tables.add(table.group(1).toLowerCase(Locale.ROOT));
      }
    }
    return tables;
  }
}
