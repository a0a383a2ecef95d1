package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SimMemoryWatchTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path proc;
  @TempDir Path sys;

  private final Map<String, Long> stored = new ConcurrentHashMap<>();
  private SimMemoryWatch watch;

  @AfterEach
  void close() {
    if (watch != null) {
      watch.close();
    }
  }

  private void process(long pid, long rssKib, String cgroup) throws IOException {
    Path dir = proc.resolve(Long.toString(pid));
    Files.createDirectories(dir.resolve("task").resolve(Long.toString(pid)));
    Files.writeString(dir.resolve("status"), "Name:\tsim\nVmRSS:\t" + rssKib + " kB\n");
    Files.writeString(dir.resolve("task").resolve(Long.toString(pid)).resolve("children"), "");
    Files.writeString(dir.resolve("cgroup"), "4:memory:" + cgroup + "\n");
  }

  private Path oomControl(String cgroup, int kills) throws IOException {
    Path file =
        Files.createDirectories(sys.resolve("memory").resolve(cgroup.substring(1)))
            .resolve("memory.oom_control");
    Files.writeString(file, "oom_kill_disable 0\nunder_oom 0\noom_kill " + kills + "\n");
    return file;
  }

  @Test
  void keepsThePeak_storesItAsItGrows_andTellsAnOomKillInTheSimsCgroup() throws IOException {
    Path counter = oomControl("/sims/s_1", 0);
    process(100, 1000, "/sims/s_1");
    watch = new SimMemoryWatch(new ProcMemory(proc, sys), 10);
    watch.start(stored::put, () -> {});
    watch.watch("s_1", 100);
    await().atMost(WAIT).until(() -> stored.getOrDefault("s_1", 0L) == 1000L * 1024);

    process(100, 5000, "/sims/s_1");
    await().atMost(WAIT).until(() -> stored.getOrDefault("s_1", 0L) == 5000L * 1024);
    process(100, 2000, "/sims/s_1"); // shrank: the peak stays
    await().atMost(WAIT).until(() -> watch.resident("s_1").orElse(0) == 2000L * 1024);
    assertThat(watch.reading("s_1").orElseThrow().oomKill()).isEmpty();

    Files.writeString(counter, "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
    SimMemoryWatch.Reading reading = watch.stop("s_1").orElseThrow();

    assertThat(reading.peakBytes()).isEqualTo(5000L * 1024);
    assertThat(reading.oomKill())
        .hasValue(
            "the kernel's out-of-memory killer ended a process of it (oom_kill of "
                + counter
                + " went from 0 to 1)");
    assertThat(watch.reading("s_1")).isEmpty();
  }

  @Test
  void killsCountedBeforeTheSimWasSeen_doNotMakeItsEndAnOomKill() throws IOException {
    oomControl("/shared", 7); // a cgroup where others were killed before
    process(200, 300, "/shared");
    watch = new SimMemoryWatch(new ProcMemory(proc, sys), 10);
    watch.start(stored::put, () -> {});
    watch.watch("s_2", 200);
    await().atMost(WAIT).until(() -> stored.containsKey("s_2"));

    assertThat(watch.stop("s_2").orElseThrow().oomKill()).isEmpty();
  }
}
