package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Role;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every route the server registers, asked by every kind of caller, against a table of who may call
 * it. The routes come from the server's own registry, so a route added without a row here fails the
 * test: no route can be left open by mistake.
 */
final class RouteRolesIT {

  /** Who may call a route. */
  enum Access {
    /** Anyone who can reach the server: health, metrics, the web UI's files. */
    OPEN,
    /** Any valid user token: reads. */
    VIEWER,
    /** Submitters and admins. */
    SUBMITTER,
    /** The run's owner (a submitter) and admins; another submitter is refused. */
    OWNER,
    /** Admins only. */
    ADMIN,
    /** The named sim's own token only. */
    SIM
  }

  /** Every route and who may call it. A new route needs its row. */
  private static final Map<String, Access> TABLE = new LinkedHashMap<>();

  static {
    TABLE.put("GET /", Access.OPEN);
    TABLE.put("GET /ui/{file}", Access.OPEN);
    TABLE.put("GET /healthz", Access.OPEN);
    TABLE.put("GET /metrics", Access.OPEN);
    TABLE.put("GET /api/openapi.json", Access.VIEWER);
    TABLE.put("GET /api/uploads", Access.VIEWER);
    TABLE.put("GET /api/traces", Access.VIEWER);
    TABLE.put("GET /api/traces/{id}", Access.VIEWER);
    TABLE.put("GET /api/traces/{id}/sampling", Access.VIEWER);
    TABLE.put("GET /api/gpu-configs", Access.VIEWER);
    TABLE.put("PUT /api/traces/{id}/hardware", Access.SUBMITTER);
    TABLE.put("GET /api/measures", Access.VIEWER);
    TABLE.put("GET /api/simulator", Access.VIEWER);
    TABLE.put("POST /api/gc", Access.ADMIN);
    TABLE.put("POST /api/runs", Access.SUBMITTER);
    TABLE.put("GET /api/runs", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/speed", Access.VIEWER);
    TABLE.put("POST /api/runs/{id}/cancel", Access.OWNER);
    TABLE.put("POST /api/runs/{id}/retry", Access.OWNER);
    TABLE.put("POST /api/runs/{id}/rerun", Access.OWNER);
    TABLE.put("GET /api/runs/{id}/events", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/results", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/results.csv", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/results/sims.csv", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/results/get_stats.csv", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/correlation", Access.VIEWER);
    TABLE.put("GET /api/runs/{id}/entries/{entry}/{file}", Access.VIEWER);
    TABLE.put("GET /api/compare", Access.VIEWER);
    TABLE.put("GET /api/sims/{id}/log", Access.VIEWER);
    TABLE.put("GET /api/sims/{id}/kernels", Access.VIEWER);
    TABLE.put("POST /api/sims/{id}/heartbeat", Access.SIM);
    TABLE.put("PUT /api/sims/{id}/chunks/{seq}", Access.SIM);
    TABLE.put("GET /api/sims/{id}/trace", Access.SIM);
    TABLE.put("GET /api/sims/{id}/trace/file", Access.SIM);
    TABLE.put("GET /api/me", Access.VIEWER);
    TABLE.put("GET /api/users", Access.ADMIN);
    TABLE.put("POST /api/users", Access.ADMIN);
    TABLE.put("POST /api/users/{name}/revoke", Access.ADMIN);
  }

  /** A kind of caller, and the header it sends (none: no token at all). */
  private record Caller(String name, String[] headers) {
    @Override
    public String toString() {
      return name;
    }
  }

  @TempDir Path dataDir;
  private ApiServer server;
  private final List<Caller> callers = new ArrayList<>();
  private Caller nobody;
  private Caller sim;
  private Caller viewer;
  private Caller owner;
  private Caller otherSubmitter;
  private Caller admin;
  private String runId;
  private String simId;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir, settings -> settings.withToken(RolesIT.ADMIN_TOKEN));
    nobody = new Caller("no token", new String[0]);
    viewer = user("vera", Role.VIEWER);
    owner = user("bob", Role.SUBMITTER);
    otherSubmitter = user("alice", Role.SUBMITTER);
    admin = new Caller("admin (the server's token)", RolesIT.auth(RolesIT.ADMIN_TOKEN));
    server.engine.users().add("target", Role.VIEWER, null, "local");
    var created = server.post("/api/runs", RolesIT.RUN_BODY, owner.headers());
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode run = created.json();
    runId = run.get("id").asText();
    simId = ApiServer.simIds(run).getFirst();
    sim = new Caller("the sim's token", server.simAuth(simId));
    callers.addAll(List.of(nobody, sim, viewer, owner, otherSubmitter, admin));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Caller user(String name, Role role) {
    String token = server.engine.users().add(name, role, null, "local").token();
    return new Caller(name + " (" + role.wireName() + ")", RolesIT.auth(token));
  }

  @Test
  void everyRegisteredRoute_isInTheTable_andTheTableIsNoLonger() {
    assertThat(server.api.routes()).hasSizeGreaterThanOrEqualTo(30);
    assertThat(TABLE.keySet()).containsExactlyInAnyOrderElementsOf(server.api.routes());
  }

  @Test
  void everyRoute_answersEachCallerAsTheTableSays() {
    List<String> wrong = new ArrayList<>();
    for (String route : server.api.routes()) {
      Access access = TABLE.get(route);
      assertThat(access).as("the table's row for " + route).isNotNull();
      for (Caller caller : callers) {
        int status = call(route, caller);
        Expected expected = expected(access, caller);
        if (!expected.matches(status)) {
          wrong.add(route + " by " + caller + ": expected " + expected + ", got " + status);
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void theTable_agreesWithTheRolesTheOpenApiDocumentGives() {
    JsonNode paths = server.get("/api/openapi.json", admin.headers()).json().get("paths");
    for (Map.Entry<String, Access> row : TABLE.entrySet()) {
      String method = row.getKey().substring(0, row.getKey().indexOf(' '));
      String path = row.getKey().substring(method.length() + 1);
      JsonNode operation = paths.path(path).path(method.toLowerCase(Locale.ROOT));
      String role = operation.path(OpenApiPaths.ROLE).asText(null);
      String expected =
          switch (row.getValue()) {
            case VIEWER -> "viewer";
            case SUBMITTER, OWNER -> "submitter";
            case ADMIN -> "admin";
            case OPEN, SIM -> null;
          };
      assertThat(role).as(row.getKey()).isEqualTo(expected);
    }
  }

  /** What a caller should get: allowed (any answer of the route itself), 401 or 403. */
  private enum Expected {
    ALLOWED,
    UNAUTHORIZED,
    FORBIDDEN;

    boolean matches(int status) {
      return switch (this) {
        case ALLOWED -> status != 401 && status != 403 && status < 500;
        case UNAUTHORIZED -> status == 401;
        case FORBIDDEN -> status == 403;
      };
    }
  }

  private Expected expected(Access access, Caller caller) {
    if (access == Access.OPEN) {
      return Expected.ALLOWED;
    }
    if (access == Access.SIM) {
      if (caller == sim) {
        return Expected.ALLOWED;
      }
      return caller == nobody ? Expected.UNAUTHORIZED : Expected.FORBIDDEN;
    }
    if (caller == nobody || caller == sim) {
      return Expected.UNAUTHORIZED;
    }
    if (caller == admin) {
      return Expected.ALLOWED;
    }
    return switch (access) {
      case VIEWER -> Expected.ALLOWED;
      case SUBMITTER -> caller == viewer ? Expected.FORBIDDEN : Expected.ALLOWED;
      case OWNER -> caller == owner ? Expected.ALLOWED : Expected.FORBIDDEN;
      case ADMIN -> Expected.FORBIDDEN;
      case OPEN, SIM -> throw new IllegalStateException();
    };
  }

  /** The route's status for the caller, with its path filled in; a stream is closed at once. */
  private int call(String route, Caller caller) {
    String method = route.substring(0, route.indexOf(' '));
    String path =
        route
            .substring(method.length() + 1)
            .replace("/api/traces/{id}", "/api/traces/demo")
            .replace("/api/runs/{id}", "/api/runs/" + runId)
            .replace("/api/sims/{id}", "/api/sims/" + simId)
            .replace("{seq}", "0")
            .replace("{name}", "target")
            .replace("/entries/{entry}/{file}", "/entries/0/gpgpusim.config")
            .replace("{file}", "app.js");
    if (path.equals("/api/compare")) {
      path += "?runs=" + runId + "," + runId;
    } else if (path.endsWith("/trace/file")) {
      path += "?path=kernelslist.g";
    }
    byte[] body = "{}".getBytes();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.uri(path))
            .timeout(ApiServer.WAIT)
            .method(
                method,
                method.equals("GET") ? BodyPublishers.noBody() : BodyPublishers.ofByteArray(body));
    if (!method.equals("GET")) {
      request.header("Content-Type", "application/json");
    }
    if (caller.headers().length > 0) {
      request.headers(caller.headers());
    }
    try {
      HttpResponse<InputStream> response =
          server.http.send(request.build(), BodyHandlers.ofInputStream());
      response.body().close();
      return response.statusCode();
    } catch (IOException e) {
      throw new UncheckedIOException(route + " by " + caller, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
