package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade users add|list|revoke} against a server with a token, and what the users' tokens
 * then may do from the same command line ({@code CASCADE_TOKEN}).
 */
final class UsersCommandIT {

  private static final String ADMIN_TOKEN = "admin-token-for-the-cli";

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @BeforeEach
  void start() throws Exception {
    cascade =
        new CliTestServer(dataDir, ServerSettings.defaults().withPort(0).withToken(ADMIN_TOKEN));
    cascade.environment.put("CASCADE_TOKEN", ADMIN_TOKEN);
  }

  @AfterEach
  void stop() {
    cascade.close();
  }

  /** The token {@code users add} printed: its last line. */
  private static String tokenOf(Result added) {
    List<String> lines = added.out().strip().lines().toList();
    return lines.getLast().strip();
  }

  @Test
  void add_printsTheTokenOnce_andListShowsTheUserWithoutIt() {
    Result added = cascade.run("users", "add", "alice", "--role", "submitter", "--expires", "90d");
    Result list = cascade.run("users", "list");

    assertThat(added.exit()).as(added.err()).isZero();
    assertThat(added.out())
        .contains("Added alice as submitter, token expires ")
        .contains("shown this once");
    String token = tokenOf(added);
    assertThat(token).startsWith("cascade_");
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(list.out())
        .containsPattern("alice\\s+submitter\\s+\\S+\\s+local\\s+active until ")
        .doesNotContain(token);
  }

  @Test
  void aViewersToken_readsRuns_butCannotCreateOne_orManageUsers() {
    String viewer = tokenOf(cascade.run("users", "add", "vera", "--role", "viewer"));
    cascade.environment.put("CASCADE_TOKEN", viewer);

    Result list = cascade.run("runs", "list");
    Result create = cascade.run("runs", "create", "demo", "SM90_H100:1");
    Result users = cascade.run("users", "list");

    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(create.exit()).isEqualTo(1);
    assertThat(create.err())
        .contains("creating a run needs the submitter role; you are vera (viewer)");
    assertThat(users.exit()).isEqualTo(1);
    assertThat(users.err()).contains("listing users needs the admin role; you are vera (viewer)");
  }

  @Test
  void revoke_stopsTheToken_andRunsShowTellsWhoCancelled() {
    String alice = tokenOf(cascade.run("users", "add", "alice", "--role", "submitter"));
    cascade.environment.put("CASCADE_TOKEN", alice);
    Result created = cascade.run("runs", "create", "demo", "SM90_H100:1", "--json");
    assertThat(created.exit()).as(created.err()).isZero();
    String runId = created.out().replaceAll("(?s).*\"id\"\\s*:\\s*\"(r_[^\"]+)\".*", "$1");
    Result cancelled = cascade.run("runs", "cancel", runId);
    Result shown = cascade.run("runs", "show", runId);

    cascade.environment.put("CASCADE_TOKEN", ADMIN_TOKEN);
    Result revoked = cascade.run("users", "revoke", "alice");
    cascade.environment.put("CASCADE_TOKEN", alice);
    Result after = cascade.run("runs", "list");

    assertThat(cancelled.exit()).as(cancelled.err()).isZero();
    assertThat(shown.out())
        .containsPattern("owner\\s+alice")
        .containsPattern("cancelled\\s+by alice at ");
    assertThat(revoked.exit()).as(revoked.err()).isZero();
    assertThat(revoked.out()).contains("Revoked alice (submitter): revoked ").contains(" by local");
    assertThat(after.exit()).isEqualTo(1);
    assertThat(after.err()).contains("\"alice\" was revoked");
  }

  @Test
  void add_refusesAnUnknownRoleOrExpiryAsUsage() {
    Result role = cascade.run("users", "add", "x", "--role", "root");
    Result expires = cascade.run("users", "add", "x", "--role", "viewer", "--expires", "soon");

    assertThat(role.exit()).isEqualTo(2);
    assertThat(role.err()).contains("viewer, submitter, admin").contains("root");
    assertThat(expires.exit()).isEqualTo(2);
    assertThat(expires.err()).contains("--expires").contains("soon");
  }
}
