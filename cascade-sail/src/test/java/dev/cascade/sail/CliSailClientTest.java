package dev.cascade.sail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.sail.SailException.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CliSailClientTest {

  @TempDir Path dir;

  @Test
  void fromEnvironment_listsEverythingMissing() {
    CliSailClient client = CliSailClient.fromEnvironment(Map.of("PATH", dir.toString()));

    assertThat(client.unavailableReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("no sail command on PATH (" + dir + ")")
                    .contains("pip install sail")
                    .contains("SAIL_API_KEY is not set")
                    .contains("set CASCADE_SAIL_SANDBOX_ID"));
    assertThat(client.ownSandboxId()).isNull();
  }

  @Test
  void fromEnvironment_findsSailOnPathAndTheSandboxIdSailSets() throws IOException {
    Path sail = executable(dir.resolve("bin/sail"));

    CliSailClient client =
        CliSailClient.fromEnvironment(
            Map.of(
                "PATH", "/nowhere:" + sail.getParent(),
                "SAIL_API_KEY", "sk_test",
                "SAILBOX_ID", "sb_app"));

    assertThat(client.unavailableReason()).isEmpty();
    assertThat(client.executable()).contains(sail);
    assertThat(client.ownSandboxId()).isEqualTo("sb_app");
  }

  @Test
  void fromEnvironment_prefersTheExplicitCliAndSandbox() throws IOException {
    Path sail = executable(dir.resolve("tools/my-sail"));

    CliSailClient client =
        CliSailClient.fromEnvironment(
            Map.of(
                "CASCADE_SAIL_CLI", sail.toString(),
                "SAIL_API_KEY", "sk_test",
                "SAILBOX_ID", "sb_other",
                "CASCADE_SAIL_SANDBOX_ID", "sb_app"));

    assertThat(client.executable()).contains(sail);
    assertThat(client.ownSandboxId()).isEqualTo("sb_app");
  }

  @Test
  void fromEnvironment_rejectsACliThatIsNotAProgramAndASandboxIdThatIsNotOne() throws IOException {
    Path notExecutable = Files.writeString(dir.resolve("sail"), "");

    CliSailClient client =
        CliSailClient.fromEnvironment(
            Map.of(
                "CASCADE_SAIL_CLI", notExecutable.toString(),
                "SAIL_API_KEY", "sk_test",
                "SAILBOX_ID", "--all"));

    assertThat(client.unavailableReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("CASCADE_SAIL_CLI names \"" + notExecutable + "\", which is not")
                    .contains("\"--all\" is not a sandbox id"));
  }

  @Test
  void calls_failPermanentlyWhenTheClientIsNotSetUp() {
    CliSailClient client = CliSailClient.fromEnvironment(Map.of());

    assertThatThrownBy(() -> client.terminate("sb_1"))
        .isInstanceOfSatisfying(
            SailException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PERMANENT))
        .hasMessageStartingWith("the sail CLI cannot be used: no sail command on PATH");
  }

  @Test
  void classify_sortsFailuresByWhatTryingAgainCanDo() {
    assertThat(CliSailClient.classify(1, "Error: sailbox sb_1 not found"))
        .isEqualTo(Kind.NOT_FOUND);
    assertThat(CliSailClient.classify(1, "grpc: NOT_FOUND")).isEqualTo(Kind.NOT_FOUND);
    assertThat(CliSailClient.classify(1, "UNAVAILABLE: connection refused"))
        .isEqualTo(Kind.TRANSIENT);
    assertThat(CliSailClient.classify(1, "DEADLINE_EXCEEDED")).isEqualTo(Kind.TRANSIENT);
    assertThat(CliSailClient.classify(1, "something odd happened")).isEqualTo(Kind.TRANSIENT);
    assertThat(CliSailClient.classify(1, "UNAUTHENTICATED: invalid API key"))
        .isEqualTo(Kind.PERMANENT);
    assertThat(CliSailClient.classify(1, "PERMISSION_DENIED")).isEqualTo(Kind.PERMANENT);
    assertThat(CliSailClient.classify(2, "Error: No such option: --no-restore-memory"))
        .isEqualTo(Kind.PERMANENT);
    assertThat(CliSailClient.classify(1, "FAILED_PRECONDITION: sandbox is paused"))
        .isEqualTo(Kind.PERMANENT);
  }

  @Test
  void idIn_readsAnObjectsIdOrABareIdLine() throws SailException {
    assertThat(
            CliSailClient.idIn(
                "{\"sailbox_id\": \"sb_7\", \"status\": \"running\"}", "x", "sailbox_id", "id"))
        .isEqualTo("sb_7");
    assertThat(CliSailClient.idIn("{\"id\": \"ck_1\"}", "x", "checkpoint_id", "id"))
        .isEqualTo("ck_1");
    assertThat(CliSailClient.idIn("Creating...\nsb_8\n", "x", "sailbox_id")).isEqualTo("sb_8");
    assertThatThrownBy(
            () -> CliSailClient.idIn("{\"status\": \"running\"}", "sail box create", "sailbox_id"))
        .isInstanceOf(SailException.class)
        .hasMessageStartingWith("sail box create answered without sailbox_id")
        .hasMessageContaining("docs/sail.md");
  }

  @Test
  void findByName_skipsOtherNamesAndDeadEntries() throws SailException {
    String list =
        """
        {"checkpoints": [
          {"checkpoint_id": "ck_1", "name": "cascade-r_1", "status": "failed"},
          {"checkpoint_id": "ck_2", "name": "cascade-r_2", "status": "ready"},
          {"checkpoint_id": "ck_3", "name": "cascade-r_1", "status": "ready"}
        ]}
        """;

    assertThat(CliSailClient.findByName(list, "cascade-r_1", Set.of("failed"), "checkpoint_id"))
        .contains("ck_3");
    assertThat(CliSailClient.findByName("[]", "cascade-r_1", Set.of(), "id")).isEmpty();
    assertThatThrownBy(() -> CliSailClient.findByName("{\"oops\": 1}", "x", Set.of(), "id"))
        .isInstanceOf(SailException.class)
        .hasMessageStartingWith("the sail CLI's output is not a list");
  }

  private static Path executable(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }
}
