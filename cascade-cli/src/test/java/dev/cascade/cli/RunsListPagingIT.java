package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cascade runs list --trace --state --owner --limit --cursor}: pages and filters. */
final class RunsListPagingIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern MORE = Pattern.compile("More: (cascade runs list .*)");

  @TempDir Path dataDir;
  private CliTestServer cascade;

  /** Run ids, newest first. */
  private final List<String> newestFirst = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    cascade = new CliTestServer(dataDir);
    for (int i = 0; i < 7; i++) {
      Result created =
          cascade.run(
              "runs",
              "create",
              "demo",
              "SM90_H100:1",
              "--owner",
              i % 2 == 0 ? "alice" : "bob",
              "--json");
      assertThat(created.exit()).as(created.err()).isZero();
      String id = JSON.readTree(created.out()).get("id").asText();
      newestFirst.addFirst(id);
      if (i == 2 || i == 4) {
        assertThat(cascade.run("runs", "cancel", id).exit()).isZero();
      }
    }
  }

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void list_pagesThreeAtATimeAndNamesTheCommandForTheNextPage() {
    List<String> seen = new ArrayList<>();
    String[] command = {"runs", "list", "--limit", "3"};
    List<Integer> sizes = new ArrayList<>();
    while (command != null) {
      Result page = cascade.run(command);
      assertThat(page.exit()).as(page.err()).isZero();
      List<String> ids = idsIn(page.out());
      sizes.add(ids.size());
      seen.addAll(ids);
      Matcher more = MORE.matcher(page.out());
      command = more.find() ? more.group(1).substring("cascade ".length()).split(" ") : null;
      assertThat(sizes).hasSizeLessThan(10);
    }

    assertThat(sizes).containsExactly(3, 3, 1);
    assertThat(seen).isEqualTo(newestFirst);
  }

  @Test
  void list_isOneRequestPerPage_notOnePerRun() {
    long before = cascade.server.responses(200);
    Result page = cascade.run("runs", "list", "--limit", "5");
    long requests = cascade.server.responses(200) - before;

    assertThat(page.exit()).as(page.err()).isZero();
    assertThat(idsIn(page.out())).isEqualTo(newestFirst.subList(0, 5));
    assertThat(requests).isOne();
  }

  @Test
  void list_filtersByStateAndOwnerTogether() throws Exception {
    Result cancelled = cascade.run("runs", "list", "--state", "cancelled", "--owner", "alice");
    Result json =
        cascade.run("runs", "list", "--owner", "bob", "--trace", "demo", "--json", "--limit", "2");

    assertThat(cancelled.exit()).as(cancelled.err()).isZero();
    assertThat(idsIn(cancelled.out())).containsExactly(newestFirst.get(2), newestFirst.get(4));
    assertThat(cancelled.out()).doesNotContain("More:");
    assertThat(json.exit()).as(json.err()).isZero();
    JsonNode page = JSON.readTree(json.out());
    assertThat(page.get("runs")).hasSize(2);
    assertThat(page.get("runs").get(0).get("owner").asText()).isEqualTo("bob");
    assertThat(page.get("runs").get(0).get("kernels_total").asInt()).isEqualTo(3);
    assertThat(page.get("next_cursor").isTextual()).isTrue();
  }

  @Test
  void list_aBadStateOrLimit_isAUsageErrorNamingIt() {
    Result state = cascade.run("runs", "list", "--state", "done");
    Result limit = cascade.run("runs", "list", "--limit", "0");

    assertThat(state.exit()).isEqualTo(2);
    assertThat(state.err()).contains("state must be one of").contains("\"done\"");
    assertThat(limit.exit()).isEqualTo(2);
    assertThat(limit.err())
        .contains("limit must be a whole number from 1 to 500")
        .contains("\"0\"");
  }

  private List<String> idsIn(String out) {
    return out.lines().map(line -> line.split("\\s+")[0]).filter(newestFirst::contains).toList();
  }
}
