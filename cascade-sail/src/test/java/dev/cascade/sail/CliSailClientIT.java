package dev.cascade.sail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.sail.SailException.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code sail} command lines the client runs and how it reads their answers, against a stand-in
 * {@code sail} script that logs its arguments and answers what the test tells it to.
 */
final class CliSailClientIT {

  /**
   * Logs each call as one line of bracketed arguments, then answers from {@code $DIR/answer} (and
   * {@code $DIR/code}, the exit code) when present, else with a canned JSON answer per command.
   */
  private static final String FAKE_SAIL =
      """
      #!/bin/sh
      {
        printf 'sail'
        for arg in "$@"; do printf ' [%s]' "$arg"; done
        printf '\\n'
      } >> "$FAKE_SAIL_DIR/calls"
      echo "key=$SAIL_API_KEY" > "$FAKE_SAIL_DIR/env"
      if [ -f "$FAKE_SAIL_DIR/hang" ]; then echo $$ > "$FAKE_SAIL_DIR/pid"; exec sleep 60; fi
      if [ -f "$FAKE_SAIL_DIR/answer" ]; then
        cat "$FAKE_SAIL_DIR/answer" >&2
        exit "$(cat "$FAKE_SAIL_DIR/code")"
      fi
      case "$1 $2" in
        "box checkpoints") echo '[{"checkpoint_id": "ck_1", "name": "cascade-r_1", "status": "ready"}]' ;;
        "box checkpoint") echo '{"checkpoint_id": "ck_2", "name": "cascade-r_2"}' ;;
        "box list") echo '{"sailboxes": [{"sailbox_id": "sb_5", "name": "cascade-s_1", "status": "terminated"}]}' ;;
        "box create") echo '{"sailbox_id": "sb_7", "name": "cascade-s_1", "status": "running"}' ;;
        "box exec") echo '{"exec_id": "ex_3"}' ;;
        "box terminate") echo 'terminated' ;;
      esac
      """;

  @TempDir Path dir;
  private CliSailClient client;

  @BeforeEach
  void start() throws IOException {
    Path sail = dir.resolve("bin/sail");
    Files.createDirectories(sail.getParent());
    Files.writeString(sail, FAKE_SAIL);
    Files.setPosixFilePermissions(sail, PosixFilePermissions.fromString("rwx------"));
    client =
        CliSailClient.fromEnvironment(
            Map.of(
                "PATH",
                sail.getParent() + ":/usr/bin:/bin",
                "SAIL_API_KEY",
                "sk_test",
                "SAILBOX_ID",
                "sb_app",
                "FAKE_SAIL_DIR",
                dir.toString()));
  }

  @Test
  void calls_runTheseSailCommandLines() throws Exception {
    assertThat(client.findCheckpoint("sb_app", "cascade-r_1")).contains("ck_1");
    assertThat(client.checkpoint("sb_app", "cascade-r_2")).isEqualTo("ck_2");
    assertThat(client.findSandbox("cascade-s_1")).isEmpty(); // the only one is terminated
    assertThat(client.createFromCheckpoint("ck_2", "cascade-s_1", false)).isEqualTo("sb_7");
    assertThat(
            client.exec(
                "sb_7",
                new SailExec(
                    List.of("sh", "-c", "echo \"$A\" it's", "x y"),
                    Map.of("B", "two words", "A", "1"),
                    "s_1")))
        .isEqualTo("ex_3");
    client.terminate("sb_7");

    assertThat(calls())
        .containsExactly(
            "sail [box] [checkpoints] [sb_app] [--json]",
            "sail [box] [checkpoint] [sb_app] [--name] [cascade-r_2] [--json]",
            "sail [box] [list] [--name] [cascade-s_1] [--json]",
            "sail [box] [create] [--from-checkpoint] [ck_2] [--name] [cascade-s_1]"
                + " [--no-restore-memory] [--json]",
            "sail [box] [exec] [sb_7] [--background] [--idempotency-key] [s_1] [--env] [A=1]"
                + " [--env] [B=two words] [--json] [--] [sh] [-c] [echo \"$A\" it's] [x y]",
            "sail [box] [terminate] [sb_7]");
    assertThat(dir.resolve("env")).content().isEqualTo("key=sk_test\n");
  }

  @Test
  void terminate_ofASandboxThatIsGoneIsFine() throws Exception {
    answer(1, "Error: sailbox sb_7 not found");

    client.terminate("sb_7");

    assertThat(calls()).containsExactly("sail [box] [terminate] [sb_7]");
  }

  @Test
  void failures_sayWhatFailedAndWhetherToTryAgain() throws Exception {
    answer(1, "UNAVAILABLE: failed to connect to all addresses");
    assertThatThrownBy(() -> client.checkpoint("sb_app", "cascade-r_1"))
        .isInstanceOfSatisfying(
            SailException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TRANSIENT))
        .hasMessage(
            "sail box checkpoint sb_app exited with 1: UNAVAILABLE: failed to connect to all"
                + " addresses");

    answer(2, "Usage: sail box create [OPTIONS]\nError: No such option: --no-restore-memory");
    assertThatThrownBy(() -> client.createFromCheckpoint("ck_1", "cascade-s_1", false))
        .isInstanceOfSatisfying(
            SailException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PERMANENT))
        .hasMessageContaining("No such option: --no-restore-memory");

    answer(1, "Error: sailbox sb_9 not found");
    assertThatThrownBy(
            () ->
                client.exec(
                    "sb_9", new SailExec(List.of("true"), Map.of("TOKEN", "secret"), "s_1")))
        .isInstanceOfSatisfying(
            SailException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND))
        .hasMessage("sail box exec sb_9 exited with 1: Error: sailbox sb_9 not found")
        .message()
        .doesNotContain("secret");
  }

  @Test
  void call_thatIsInterruptedEndsTheSailProcess() throws Exception {
    Files.writeString(dir.resolve("hang"), "");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    client.findSandbox("cascade-s_1");
                  } catch (Throwable e) {
                    thrown.set(e);
                  }
                });
    Path pidFile = dir.resolve("pid");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);
    long pid = Long.parseLong(Files.readString(pidFile).strip());

    caller.interrupt();
    caller.join(Duration.ofSeconds(10));

    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  private void answer(int code, String stderr) throws IOException {
    Files.writeString(dir.resolve("answer"), stderr);
    Files.writeString(dir.resolve("code"), Integer.toString(code));
  }

  private List<String> calls() throws IOException {
    return Files.readAllLines(dir.resolve("calls"));
  }
}
