package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Run;
import dev.cascade.core.RunState;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class WatchRunExampleIT {

  @TempDir Path dataDir;

  @Test
  void run_printsATableAtEachChangeUntilEverySimSucceeded() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    Run run = WatchRunExample.run(dataDir, Fast.ENVIRONMENT, out, false);

    assertThat(run.state()).isEqualTo(RunState.SUCCEEDED);
    List<String> tables = List.of(bytes.toString(StandardCharsets.UTF_8).split("(?=run r_)"));
    assertThat(tables).hasSizeGreaterThan(2);
    assertThat(tables.getFirst()).startsWith("run " + run.id() + " (active)");
    assertThat(tables.getLast())
        .startsWith("run " + run.id() + " (succeeded)")
        .containsPattern("SM90_H100 +0 succeeded +5/5")
        .containsPattern("SM90_H100 +1 succeeded +5/5")
        .containsPattern("SM90_H200 +0 succeeded +5/5")
        .containsPattern("SM90_H200 +1 succeeded +5/5");
  }

  @Test
  void runInTemporaryDataDir_leavesNothingBehind() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    Run run = WatchRunExample.runInTemporaryDataDir(Fast.ENVIRONMENT, out, false);

    assertThat(run.state()).isEqualTo(RunState.SUCCEEDED);
    String first = bytes.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    assertThat(first).startsWith("Cascade data in ").contains("cascade-example-");
    Path used = Path.of(first.substring("Cascade data in ".length(), first.indexOf(" (deleted")));
    assertThat(used).as(first).doesNotExist();
  }
}
