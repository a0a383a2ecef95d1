package dev.cascade.core.internal.trace;

import static dev.cascade.core.internal.trace.TestTraces.append;
import static dev.cascade.core.internal.trace.TestTraces.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FolderWatcherTest {

  private static final Duration PATIENCE = Duration.ofSeconds(10);

  @TempDir Path root;

  @Test
  void changesDeepInNewFolders_areReportedAsTheirTrace() throws IOException {
    Set<String> changed = ConcurrentHashMap.newKeySet();
    try (FolderWatcher watcher =
        new FolderWatcher(root, changed::add, () -> {}, "cascade-trace-watcher-test")) {
      watcher.start();

      Files.createDirectories(root.resolve("t1/traces/deeper"));
      await().atMost(PATIENCE).until(() -> changed.contains("t1"));

      // The new folders were registered too: a change deep inside is seen.
      changed.clear();
      write(root.resolve("t1/traces/deeper/kernel-1.traceg"), "x");
      await().atMost(PATIENCE).until(() -> changed.contains("t1"));

      changed.clear();
      append(root.resolve("t1/traces/deeper/kernel-1.traceg"), "y");
      write(root.resolve("t2/metadata.json"), "{}");
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(changed).containsExactlyInAnyOrder("t1", "t2"));
    }
  }

  @Test
  void close_stopsTheThread() throws IOException {
    FolderWatcher watcher = new FolderWatcher(root, id -> {}, () -> {}, "cascade-trace-watcher-x");
    watcher.start();
    assertThat(threadNamed("cascade-trace-watcher-x")).isTrue();

    watcher.close();

    await().atMost(PATIENCE).until(() -> !threadNamed("cascade-trace-watcher-x"));
  }

  private static boolean threadNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().equals(name));
  }
}
