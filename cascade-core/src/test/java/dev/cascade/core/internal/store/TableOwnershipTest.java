package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.MainSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One owner per table: each table of the schema is read and written by exactly one repository in
 * {@code internal.store}, and no SQL runs anywhere else. Scans the main sources as text, so a new
 * statement in the wrong class fails the build.
 */
final class TableOwnershipTest {

  private static final Path MAIN = MainSources.ROOT;
  private static final Path STORE = MAIN.resolve("dev/cascade/core/internal/store");
  private static final Path SCHEMA = Path.of("src/main/resources/db/migration");

  /** Each table and the one class that may name it in SQL. */
  private static final Map<String, String> OWNERS =
      Map.of(
          "traces", "TraceRepository.java",
          "runs", "RunRepository.java",
          "sims", "SimRepository.java",
          "chunks", "ChunkRepository.java",
          "sim_kernels", "KernelRepository.java",
          "events", "EventRepository.java",
          "trace_hardware", "HardwareRepository.java",
          "sim_tokens", "SimTokenRepository.java");

  /** A statement naming a table: {@code FROM sims}, {@code JOIN sims}, {@code INTO}, ... */
  private static final Pattern TABLE_IN_SQL =
      Pattern.compile("\\b(?:FROM|JOIN|INTO|UPDATE)\\s+(\\w+)");

  /** A Java string literal (text blocks are not used for SQL here). */
  private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"");

  /** JDBC calls that run SQL. */
  private static final Pattern JDBC =
      Pattern.compile("\\b(?:prepareStatement|createStatement|executeQuery|executeUpdate)\\(");

  @Test
  void everyTable_hasAnOwner() throws IOException {
    Set<String> tables = new TreeSet<>();
    try (Stream<Path> scripts = Files.list(SCHEMA)) {
      for (Path script : scripts.toList()) {
        Matcher created = Pattern.compile("CREATE TABLE (\\w+)").matcher(Files.readString(script));
        while (created.find()) {
          tables.add(created.group(1));
        }
      }
    }
    assertThat(tables).isNotEmpty();
    assertThat(OWNERS.keySet()).containsExactlyInAnyOrderElementsOf(tables);
    for (String owner : OWNERS.values()) {
      assertThat(STORE.resolve(owner)).as("owner of a table").isRegularFile();
    }
  }

  @Test
  void eachTable_isNamedInSqlOnlyByItsOwner() {
    Map<String, Set<String>> trespassers = new TreeMap<>();
    for (Path file : MainSources.list()) {
      for (String table : tablesIn(MainSources.read(file))) {
        String owner = OWNERS.get(table);
        if (owner != null && !file.equals(STORE.resolve(owner))) {
          trespassers
              .computeIfAbsent(table, key -> new TreeSet<>())
              .add(MAIN.relativize(file).toString());
        }
      }
    }
    assertThat(trespassers).as("tables named in SQL outside their owner").isEmpty();
  }

  @Test
  void sqlRunsOnlyInTheStorePackage() {
    List<String> outside = new ArrayList<>();
    for (Path file : MainSources.list()) {
      if (!file.startsWith(STORE) && JDBC.matcher(MainSources.read(file)).find()) {
        outside.add(MAIN.relativize(file).toString());
      }
    }
    assertThat(outside).as("classes outside internal.store that run SQL").isEmpty();
  }

  @Test
  void tablesIn_findsTablesInConcatenatedLiterals() {
    String source =
        """
        class X {
          String a = "SELECT id FROM sims s LEFT JOIN"
              + " chunks c ON c.sim_id = s.id";
          String b = "INSERT INTO events (id) VALUES (?)";
          String c = "UPDATE " + "runs SET x = 1";
          // FROM traces in a comment is not SQL
          String d = "read from sims"; // lower case: a message, not SQL
        }
        """;

    assertThat(tablesIn(source)).containsExactlyInAnyOrder("sims", "chunks", "events", "runs");
  }

  /** The tables named in SQL in the string literals of {@code source}. */
  private static Set<String> tablesIn(String source) {
    // Join literals concatenated with +, so a statement split over lines reads as one.
    String joined = source.replaceAll("\"\\s*\\+\\s*\"", "");
    Set<String> tables = new TreeSet<>();
    Matcher literal = STRING_LITERAL.matcher(joined);
    while (literal.find()) {
      Matcher table = TABLE_IN_SQL.matcher(literal.group());
      while (table.find()) {
        tables.add(table.group(1));
      }
    }
    return tables;
  }
}
