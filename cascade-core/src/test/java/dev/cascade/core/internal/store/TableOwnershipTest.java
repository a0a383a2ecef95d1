package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.MainSources;
import dev.cascade.core.testkit.SqlInSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
 * {@code internal.store}, and no SQL runs anywhere else, in core or in any other module. Scans the
 * main sources as text ({@link SqlInSource}: statements in any letter case, in literals, literals
 * joined by {@code +} and text blocks), so a new statement in the wrong class fails the build.
 *
 * <p>One exception, documented in docs/architecture.md: cascade-bench's harness writes and reads
 * the store's tables directly ({@link #BENCH_SQL}) to set up thousands of sims without launching
 * them and to measure the database itself.
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
          "sim_tokens", "SimTokenRepository.java",
          "users", "UserRepository.java");

  /** The benchmark harness's files that speak SQL on purpose (see the class comment). */
  private static final Set<String> BENCH_SQL =
      Set.of(
          "cascade-bench/src/main/java/dev/cascade/bench/ReadBenchmark.java",
          "cascade-bench/src/main/java/dev/cascade/bench/ReadState.java",
          "cascade-bench/src/main/java/dev/cascade/bench/StoredChunks.java");

  /** JDBC calls that run SQL. */
  private static final Pattern JDBC =
      Pattern.compile("\\b(?:prepareStatement|createStatement|executeQuery|executeUpdate)\\(");

  @Test
  void everyTable_hasAnOwner() throws IOException {
    Set<String> tables = new TreeSet<>();
    try (Stream<Path> scripts = Files.list(SCHEMA)) {
      for (Path script : scripts.toList()) {
        Matcher created =
            Pattern.compile("(?i)CREATE TABLE (\\w+)").matcher(Files.readString(script));
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
    assertThat(trespassers(coreSources())).as("tables named in SQL outside their owner").isEmpty();
  }

  @Test
  void sqlRunsOnlyInTheStorePackage() {
    assertThat(sqlOutsideTheStore(coreSources()))
        .as("classes outside internal.store that hold or run SQL")
        .isEmpty();
  }

  @Test
  void otherModules_holdNoSql() {
    Map<String, List<String>> found = new TreeMap<>();
    for (String module : MainSources.modules()) {
      if (module.equals("cascade-core")) {
        continue;
      }
      for (Path file : MainSources.listModule(module)) {
        String name = MainSources.REPOSITORY.relativize(file).toString();
        List<String> statements = SqlInSource.statementsIn(MainSources.read(file));
        if (!statements.isEmpty() && !BENCH_SQL.contains(name)) {
          found.put(name, statements);
        }
      }
    }
    assertThat(MainSources.modules()).contains("cascade-core", "cascade-agent", "cascade-api");
    assertThat(found).as("SQL in a module other than core's store").isEmpty();
  }

  @Test
  void sqlInSource_seesLowerCaseMixedCaseTextBlocksAndConcatenation() {
    String source =
        """
        class X {
          String a = "SELECT id FROM sims s LEFT JOIN"
              + " chunks c ON c.sim_id = s.id";
          String b = "insert into events (id) values (?)";
          String c = "Update " + "runs set x = 1";
          String d = \"""
              select *
                from traces
               where id = ?\""";
          String e = "delete from sim_tokens where token = ?";
          // FROM trace_hardware in a comment is not SQL
          String f = "read from sims"; // a message, not a statement
        }
        """;

    assertThat(SqlInSource.tablesIn(source))
        .containsExactlyInAnyOrder("sims", "chunks", "events", "runs", "traces", "sim_tokens");
    assertThat(SqlInSource.statementsIn(source)).hasSize(5);
  }

  @Test
  void rules_failOnSqlOutsideTheOwner() {
    // Breaks both rules on purpose: a class outside the store that speaks SQL about sims in lower
    // case and in a text block, and a repository that names another repository's table.
    Map<Path, String> sources = new LinkedHashMap<>();
    sources.put(
        MAIN.resolve("dev/cascade/core/internal/run/RunManager.java"),
        """
        class RunManager {
          String a = "select state from sims where id = ?";
          String b = \"""
              UPDATE sims
                 SET state = 'failed'\""";
        }
        """);
    sources.put(
        STORE.resolve("RunRepository.java"),
        "class RunRepository { String a = \"delete from chunks where sim_id = ?\"; }");
    sources.put(
        STORE.resolve("SimRepository.java"),
        "class SimRepository { String a = \"select state from sims\"; }");

    assertThat(trespassers(sources))
        .containsOnlyKeys("sims", "chunks")
        .containsEntry("sims", Set.of("dev/cascade/core/internal/run/RunManager.java"))
        .containsEntry("chunks", Set.of("dev/cascade/core/internal/store/RunRepository.java"));
    assertThat(sqlOutsideTheStore(sources))
        .containsOnlyKeys("dev/cascade/core/internal/run/RunManager.java");
  }

  private static Map<Path, String> coreSources() {
    Map<Path, String> sources = new LinkedHashMap<>();
    for (Path file : MainSources.list()) {
      sources.put(file, MainSources.read(file));
    }
    return sources;
  }

  /** For each table, the files other than its owner that name it in SQL. */
  static Map<String, Set<String>> trespassers(Map<Path, String> sources) {
    Map<String, Set<String>> trespassers = new TreeMap<>();
    sources.forEach(
        (file, source) -> {
          for (String table : SqlInSource.tablesIn(source)) {
            String owner = OWNERS.get(table);
            if (owner != null && !file.equals(STORE.resolve(owner))) {
              trespassers
                  .computeIfAbsent(table, key -> new TreeSet<>())
                  .add(MAIN.relativize(file).toString());
            }
          }
        });
    return trespassers;
  }

  /** The files outside {@code internal.store} that hold a statement or make a JDBC call. */
  static Map<String, List<String>> sqlOutsideTheStore(Map<Path, String> sources) {
    Map<String, List<String>> outside = new TreeMap<>();
    sources.forEach(
        (file, source) -> {
          List<String> statements = SqlInSource.statementsIn(source);
          if (!file.startsWith(STORE) && (!statements.isEmpty() || JDBC.matcher(source).find())) {
            outside.put(MAIN.relativize(file).toString(), statements);
          }
        });
    return outside;
  }
}
