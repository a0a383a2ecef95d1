package dev.cascade.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@EnabledOnOs(OS.LINUX)
class SimAgentsTest {

  @TempDir Path dir;

  /**
   * A stand-in agent: a shell named like one (its {@code $0}) that ignores SIGTERM, so only the
   * SIGKILL that follows ends it, started in {@code cwd}.
   */
  private static Process fakeAgent(Path cwd) throws IOException {
    Files.createDirectories(cwd);
    return new ProcessBuilder(
            "sh", "-c", "trap '' TERM; while :; do sleep 0.2; done", SimAgents.AGENT_MAIN)
        .directory(cwd.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  @Test
  void stopUnder_endsTheAgentsInsideTheFolder_evenOnesThatIgnoreSigterm_andNoOther()
      throws Exception {
    Process ours = fakeAgent(dir.resolve("mine/work/sims/s1"));
    Process theirs = fakeAgent(dir.resolve("theirs"));
    try {
      // Until the new processes have exec'd the shell, their command lines are the JDK's helper's.
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(SimAgents.runningUnder(dir.resolve("mine")))
                      .extracting(ProcessHandle::pid)
                      .containsExactly(ours.pid()));

      List<Long> stopped = SimAgents.stopUnder(dir.resolve("mine"));

      assertThat(stopped).containsExactly(ours.pid());
      assertThat(ours.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(theirs.isAlive()).as("another test's agent").isTrue();
      assertThat(SimAgents.runningUnder(dir.resolve("mine"))).isEmpty();
    } finally {
      ours.destroyForcibly();
      theirs.destroyForcibly();
      ours.waitFor(5, TimeUnit.SECONDS);
      theirs.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void runningUnder_ignoresProcessesThatAreNoAgent() throws Exception {
    Files.createDirectories(dir.resolve("other"));
    Process shell =
        new ProcessBuilder("sh", "-c", "exec sleep 30")
            .directory(dir.resolve("other").toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      assertThat(SimAgents.runningUnder(dir)).isEmpty();
    } finally {
      shell.destroyForcibly();
      shell.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
