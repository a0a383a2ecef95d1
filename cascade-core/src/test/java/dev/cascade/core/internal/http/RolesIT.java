package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Role;
import dev.cascade.core.User;
import dev.cascade.core.internal.http.ApiServer.Response;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.UserRepository;
import dev.cascade.core.internal.users.UserService;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Users, roles, owners from the token and who did what, over the API of a server with a token. */
final class RolesIT {

  static final String ADMIN_TOKEN = "s3cret-admin-token";
  static final String RUN_BODY =
      "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}";

  @TempDir Path dataDir;
  private ApiServer server;
  private String[] admin;
  private String[] viewer;
  private String[] alice;
  private String[] bob;

  @BeforeEach
  void startWithUsers() throws IOException {
    server =
        ApiServer.start(
            dataDir,
            settings -> settings.withToken(ADMIN_TOKEN).withSseKeepAlive(Duration.ofMillis(200)));
    admin = auth(ADMIN_TOKEN);
    viewer = auth(add("vera", Role.VIEWER));
    alice = auth(add("alice", Role.SUBMITTER));
    bob = auth(add("bob", Role.SUBMITTER));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String add(String name, Role role) {
    return server.engine.users().add(name, role, null, "local").token();
  }

  static String[] auth(String token) {
    return new String[] {"Authorization", "Bearer " + token};
  }

  private JsonNode createAs(String[] who) {
    Response created = server.post("/api/runs", RUN_BODY, who);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json();
  }

  @Test
  void viewer_isForbiddenToCreateCancelAndRetry_andReadsEverything() {
    String runId = createAs(alice).get("id").asText();
    String simId = ApiServer.simIds(server.get("/api/runs/" + runId, viewer).json()).getFirst();

    Response create = server.post("/api/runs", RUN_BODY, viewer);
    Response cancel = server.post("/api/runs/" + runId + "/cancel", "", viewer);
    Response retry = server.post("/api/runs/" + runId + "/retry", "", viewer);

    assertThat(create.status()).isEqualTo(403);
    assertThat(create.errorCode()).isEqualTo("forbidden");
    assertThat(create.errorMessage())
        .startsWith("creating a run needs the submitter role; you are vera (viewer)");
    assertThat(cancel.status()).isEqualTo(403);
    assertThat(cancel.errorMessage()).contains("needs the submitter role; you are vera (viewer)");
    assertThat(retry.status()).isEqualTo(403);
    for (String path :
        List.of(
            "/api/runs",
            "/api/runs/" + runId,
            "/api/runs/" + runId + "/results",
            "/api/runs/" + runId + "/results.csv",
            "/api/sims/" + simId + "/log",
            "/api/sims/" + simId + "/kernels",
            "/api/traces",
            "/api/traces/demo",
            "/api/gpu-configs",
            "/api/openapi.json")) {
      assertThat(server.get(path, viewer).status()).as(path).isEqualTo(200);
    }
    assertThat(server.engine.runs().get(runId).sims())
        .allSatisfy(sim -> assertThat(sim.state().isFinished()).isFalse());
  }

  @Test
  void submitter_cannotCancelAnothersRun_whileTheOwnerAndAnAdminCan() {
    String bobs = createAs(bob).get("id").asText();
    String alices = createAs(alice).get("id").asText();

    Response aliceOnBobs = server.post("/api/runs/" + bobs + "/cancel", "", alice);
    Response aliceRetriesBobs = server.post("/api/runs/" + bobs + "/retry", "", alice);
    Response aliceRerunsBobs = server.post("/api/runs/" + bobs + "/rerun", "", alice);

    assertThat(aliceOnBobs.status()).isEqualTo(403);
    assertThat(aliceOnBobs.errorMessage())
        .startsWith(
            "cancelling another user's run needs the admin role; you are alice (submitter)");
    assertThat(aliceRetriesBobs.status()).isEqualTo(403);
    assertThat(aliceRerunsBobs.status()).isEqualTo(403);
    assertThat(server.engine.runs().get(bobs).state().wireName()).isEqualTo("active");

    assertThat(server.post("/api/runs/" + alices + "/cancel", "", alice).status()).isEqualTo(200);
    assertThat(server.post("/api/runs/" + bobs + "/cancel", "", admin).status()).isEqualTo(200);
    assertThat(server.engine.runs().get(bobs).state().wireName()).isEqualTo("cancelled");
  }

  @Test
  void runOwner_isItsCreator_whateverTheBodySays() {
    JsonNode alices = createAs(alice);
    Response asBob =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"owner\": \"bob\", \"entries\": [{\"gpu_config\":"
                + " \"SM90_H100\", \"count\": 1}]}",
            alice);
    Response asHerself =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"owner\": \"alice\", \"entries\": [{\"gpu_config\":"
                + " \"SM90_H100\", \"count\": 1}]}",
            alice);
    Response adminForBob =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"owner\": \"bob\", \"entries\": [{\"gpu_config\":"
                + " \"SM90_H100\", \"count\": 1}]}",
            admin);
    JsonNode adminsOwn = createAs(admin);

    assertThat(alices.get("owner").asText()).isEqualTo("alice");
    assertThat(asBob.status()).isEqualTo(201);
    assertThat(asBob.json().get("owner").asText()).isEqualTo("alice");
    assertThat(asHerself.status()).isEqualTo(201);
    assertThat(asHerself.json().get("owner").asText()).isEqualTo("alice");
    assertThat(adminForBob.status()).isEqualTo(201);
    assertThat(adminForBob.json().get("owner").asText()).isEqualTo("bob");
    assertThat(adminsOwn.get("owner").asText()).isEqualTo(UserService.LOCAL);
    JsonNode bobsList = server.get("/api/runs?owner=bob", viewer).json().get("runs");
    assertThat(bobsList).hasSize(1);
    assertThat(bobsList.get(0).get("id").asText()).isEqualTo(adminForBob.json().get("id").asText());
  }

  @Test
  void cancelRetryAndRerun_areRecordedWithTheUser_inTheRunAndItsEventStream() throws Exception {
    String runId = createAs(alice).get("id").asText();
    try (SseReader stream =
        SseReader.open(server.http, server.uri("/api/runs/" + runId + "/events"), viewer)) {
      assertThat(server.post("/api/runs/" + runId + "/cancel", "", alice).status()).isEqualTo(200);
      assertThat(server.post("/api/runs/" + runId + "/retry", "", admin).status()).isEqualTo(200);
      Response rerun = server.post("/api/runs/" + runId + "/rerun", "", alice);
      assertThat(rerun.status()).isEqualTo(201);
      String newRun = rerun.json().get("id").asText();

      JsonNode actions = server.get("/api/runs/" + runId, viewer).json().get("actions");
      assertThat(actions).hasSize(3);
      assertThat(actions.get(0).get("action").asText()).isEqualTo("cancel");
      assertThat(actions.get(0).get("user").asText()).isEqualTo("alice");
      assertThat(Instant.parse(actions.get(0).get("at").asText())).isNotNull();
      assertThat(actions.get(1).get("action").asText()).isEqualTo("retry");
      assertThat(actions.get(1).get("user").asText()).isEqualTo(UserService.LOCAL);
      assertThat(actions.get(2).get("action").asText()).isEqualTo("rerun");
      assertThat(actions.get(2).get("new_run_id").asText()).isEqualTo(newRun);
      assertThat(rerun.json().get("owner").asText()).isEqualTo("alice");
      await()
          .atMost(ApiServer.WAIT)
          .untilAsserted(
              () ->
                  assertThat(stream.events)
                      .filteredOn(event -> "action".equals(event.kind()))
                      .extracting(event -> ApiServer.JSON.readTree(event.data()))
                      .extracting(
                          event ->
                              event.get("data").get("action").asText()
                                  + " by "
                                  + event.get("data").get("user").asText())
                      .containsExactly("cancel by alice", "retry by local", "rerun by alice"));
    }
  }

  @Test
  void usersApi_addsWithATokenShownOnce_listsWithoutIt_andRevokes() {
    Response added =
        server.post("/api/users", "{\"name\": \"carol\", \"role\": \"submitter\"}", admin);
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    String token = added.json().get("token").asText();
    String[] carol = auth(token);

    Response me = server.get("/api/me", carol);
    Response list = server.get("/api/users", admin);
    Response bobLists = server.get("/api/users", bob);
    Response bobAdds = server.post("/api/users", "{\"name\": \"x\", \"role\": \"admin\"}", bob);
    Response duplicate =
        server.post("/api/users", "{\"name\": \"carol\", \"role\": \"viewer\"}", admin);
    Response reserved =
        server.post("/api/users", "{\"name\": \"local\", \"role\": \"viewer\"}", admin);
    Response badRole = server.post("/api/users", "{\"name\": \"dan\", \"role\": \"root\"}", admin);

    assertThat(me.json().get("name").asText()).isEqualTo("carol");
    assertThat(me.json().get("role").asText()).isEqualTo("submitter");
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.body()).doesNotContain(token).doesNotContain("token");
    assertThat(list.json().get("users")).extracting(u -> u.get("name").asText()).contains("carol");
    assertThat(bobLists.status()).isEqualTo(403);
    assertThat(bobLists.errorMessage())
        .startsWith("listing users needs the admin role; you are bob (submitter)");
    assertThat(bobAdds.status()).isEqualTo(403);
    assertThat(duplicate.status()).isEqualTo(409);
    assertThat(reserved.status()).isEqualTo(422);
    assertThat(reserved.errorField()).isEqualTo("name");
    assertThat(badRole.status()).isEqualTo(422);
    assertThat(badRole.errorMessage()).contains("viewer, submitter, admin").contains("root");

    Response revoked = server.post("/api/users/carol/revoke", "", admin);
    assertThat(revoked.status()).isEqualTo(200);
    assertThat(revoked.json().get("revoked_by").asText()).isEqualTo(UserService.LOCAL);
    Response after = server.get("/api/runs", carol);
    assertThat(after.status()).isEqualTo(401);
    assertThat(after.errorMessage()).contains("\"carol\" was revoked");
    assertThat(server.post("/api/users/carol/revoke", "", admin).status()).isEqualTo(200);
    assertThat(server.post("/api/users/nobody/revoke", "", admin).status()).isEqualTo(404);
  }

  @Test
  void revokedExpiredUnknownAndMissingTokens_areUnauthorized() {
    server.engine.users().revoke("bob", "local");
    String expiredToken = "cascade_expired-token-for-the-test";
    // A user whose token expired (the API refuses an expiry in the past), written as the
    // server's own store would: a second connection to its database.
    try (Database database = Database.open(dataDir.resolve("cascade.db"))) {
      new UserRepository(database)
          .insert(
              new User(
                  "olga",
                  Role.ADMIN,
                  Instant.parse("2020-01-01T00:00:00Z"),
                  "local",
                  Instant.parse("2020-02-01T00:00:00Z"),
                  null,
                  null),
              UserService.hash(expiredToken));
    }

    Response revoked = server.get("/api/runs", bob);
    Response expired = server.get("/api/runs", auth(expiredToken));
    Response unknown = server.get("/api/runs", auth("nope"));
    Response none = server.get("/api/runs");

    assertThat(List.of(revoked, expired, unknown, none))
        .allSatisfy(
            response -> {
              assertThat(response.status()).isEqualTo(401);
              assertThat(response.errorCode()).isEqualTo("unauthorized");
              assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
            });
    assertThat(expired.errorMessage()).contains("\"olga\" expired at 2020-02-01T00:00:00Z");
    assertThat(server.get("/api/runs", alice).status()).isEqualTo(200);
  }

  @Test
  void simTokens_reachOnlyTheirSimsRoutes_andUserTokensNone() {
    JsonNode run = createAs(alice);
    String sim = ApiServer.simIds(run).getFirst();
    String[] simAuth = server.simAuth(sim);

    assertThat(server.get("/api/runs", simAuth).status()).isEqualTo(401);
    assertThat(server.get("/api/sims/" + sim + "/log", simAuth).status()).isEqualTo(401);
    assertThat(server.post("/api/runs", RUN_BODY, simAuth).status()).isEqualTo(401);
    assertThat(server.post("/api/sims/" + sim + "/heartbeat", "{\"state\": \"running\"}", alice))
        .extracting(Response::status)
        .isEqualTo(403);
    assertThat(server.post("/api/sims/" + sim + "/heartbeat", "{\"state\": \"running\"}", admin))
        .extracting(Response::status)
        .isEqualTo(403);
    assertThat(server.heartbeat(sim, "{\"state\": \"running\"}").status()).isEqualTo(200);
  }
}
