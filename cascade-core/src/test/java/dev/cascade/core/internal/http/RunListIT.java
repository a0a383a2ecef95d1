package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/runs}: 120 runs of two owners, every fourth cancelled, paged 50 at a time and
 * filtered by trace, state and owner together; and the 400 each bad parameter gets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class RunListIT {

  private ApiServer server;

  /** The runs as created, oldest first. */
  private final List<Made> made = new ArrayList<>();

  private record Made(String id, String owner, boolean cancelled) {}

  @BeforeAll
  void start(@TempDir Path dataDir) throws IOException {
    server = ApiServer.start(dataDir);
    for (int i = 0; i < 120; i++) {
      String owner = i % 3 == 0 ? "alice" : "bob";
      Response created =
          server.post(
              "/api/runs",
              "{\"trace_id\": \"demo\", \"owner\": \""
                  + owner
                  + "\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 2},"
                  + " {\"gpu_config\": \"SM90_H200\", \"count\": 1}]}");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().get("id").asText();
      boolean cancel = i % 4 == 0;
      if (cancel) {
        assertThat(server.post("/api/runs/" + id + "/cancel", "").status()).isEqualTo(200);
      }
      made.add(new Made(id, owner, cancel));
    }
  }

  @AfterAll
  void stop() {
    server.close();
  }

  @Test
  void pages_ofFifty_giveEveryRunOnceNewestFirst() {
    List<JsonNode> pages = pages("limit=50");

    assertThat(pages).extracting(page -> page.get("runs").size()).containsExactly(50, 50, 20);
    assertThat(pages.get(2).get("next_cursor").isNull()).isTrue();
    assertThat(ids(pages)).isEqualTo(expected(made -> true));
  }

  @Test
  void pages_withTraceStateAndOwnerTogether_giveOnlyTheMatchingRuns() {
    List<JsonNode> pages = pages("trace=demo&state=cancelled&owner=alice&limit=3");

    List<String> expected = expected(run -> run.cancelled() && run.owner().equals("alice"));
    assertThat(expected).hasSize(10); // i divisible by 12
    assertThat(ids(pages)).isEqualTo(expected);
    assertThat(pages).hasSize(4);
    for (JsonNode page : pages) {
      for (JsonNode run : page.get("runs")) {
        assertThat(run.get("state").asText()).isEqualTo("cancelled");
        assertThat(run.get("owner").asText()).isEqualTo("alice");
      }
    }
    assertThat(ids(pages("state=active&owner=bob")))
        .isEqualTo(expected(run -> !run.cancelled() && run.owner().equals("bob")));
    assertThat(ids(pages("trace=sample"))).isEmpty();
  }

  @Test
  void summaries_showEachRunsConfigsAndProgressCompactly() {
    JsonNode newest = server.get("/api/runs?limit=1").json().get("runs").get(0);

    assertThat(newest.get("id").asText()).isEqualTo(made.getLast().id());
    assertThat(newest.get("kernels_done").asInt()).isZero();
    assertThat(newest.get("kernels_total").asInt()).isEqualTo(3 * 3); // 3 sims, demo has 3
    JsonNode configs = newest.get("configs");
    assertThat(configs).hasSize(2);
    assertThat(configs.get(0).get("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(configs.get(0).get("count").asInt()).isEqualTo(2);
    assertThat(configs.get(0).get("kernels_total").asInt()).isEqualTo(6);
    int counted = 0;
    for (JsonNode count : configs.get(1).get("sims_by_state")) {
      counted += count.asInt();
    }
    assertThat(counted).isEqualTo(1);
  }

  @Test
  @Order(Integer.MAX_VALUE) // it adds a run: last, so the others see the 120
  void aRunCreatedBetweenPages_neitherRepeatsNorShiftsTheNextPage() {
    JsonNode first = server.get("/api/runs?limit=50").json();
    server.createRun(1);
    JsonNode second =
        server.get("/api/runs?limit=50&cursor=" + first.get("next_cursor").asText()).json();

    assertThat(second.get("runs").get(0).get("id").asText()).isEqualTo(made.get(120 - 51).id());
  }

  @Test
  void badParameters_areA400NamingTheParameterAndValue() {
    assertRefused("limit=0", "limit", "\"0\"");
    assertRefused("limit=501", "limit", "\"501\"");
    assertRefused("limit=ten", "limit", "\"ten\"");
    assertRefused("state=done", "state", "\"done\"");
    assertRefused("cursor=not-a-cursor", "cursor", "\"not-a-cursor\"");
    assertRefused("owner=", "owner", "must not be empty");
    assertRefused("trace=a&trace=b", "trace", "once");
  }

  private void assertRefused(String query, String field, String mentions) {
    Response reply = server.get("/api/runs?" + query);

    assertThat(reply.status()).as(query).isEqualTo(400);
    assertThat(reply.errorField()).as(query).isEqualTo(field);
    assertThat(reply.json().get("error").get("message").asText()).as(query).contains(mentions);
  }

  /** Every page of the query, following next_cursor. */
  private List<JsonNode> pages(String query) {
    List<JsonNode> pages = new ArrayList<>();
    String cursor = null;
    do {
      Response reply =
          server.get(
              "/api/runs?"
                  + query
                  + (cursor == null
                      ? ""
                      : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)));
      assertThat(reply.status()).as(reply.body()).isEqualTo(200);
      JsonNode page = reply.json();
      pages.add(page);
      cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
      assertThat(pages).hasSizeLessThan(200);
    } while (cursor != null);
    return pages;
  }

  private static List<String> ids(List<JsonNode> pages) {
    List<String> ids = new ArrayList<>();
    pages.forEach(page -> page.get("runs").forEach(run -> ids.add(run.get("id").asText())));
    assertThat(new HashSet<>(ids)).hasSameSizeAs(ids);
    return ids;
  }

  /** The ids of the made runs that match, newest first, leaving out runs tests add later. */
  private List<String> expected(Predicate<Made> matches) {
    List<String> ids = new ArrayList<>();
    for (int i = made.size() - 1; i >= 0; i--) {
      if (matches.test(made.get(i))) {
        ids.add(made.get(i).id());
      }
    }
    return ids;
  }
}
