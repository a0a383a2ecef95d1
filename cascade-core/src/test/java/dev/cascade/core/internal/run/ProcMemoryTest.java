package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ProcMemoryTest {

  @TempDir Path proc;

  @Test
  void availableAndTotal_comeFromMeminfoInBytes() throws IOException {
    Files.writeString(
        proc.resolve("meminfo"),
        "MemTotal:       16303516 kB\nMemFree:         1200000 kB\nMemAvailable:    9000000 kB\n");
    ProcMemory memory = new ProcMemory(proc);
    assertThat(memory.total()).hasValue(16_303_516L * 1024);
    assertThat(memory.available()).hasValue(9_000_000L * 1024);
  }

  @Test
  void treeResident_addsTheProcessAndEveryDescendant_andIsEmptyForAGoneProcess()
      throws IOException {
    process(100, 1000, "101 102");
    process(101, 2000, "103");
    process(102, 300, "");
    process(103, 40, "");
    ProcMemory memory = new ProcMemory(proc);
    assertThat(memory.treeResident(100)).hasValue((1000L + 2000 + 300 + 40) * 1024);
    assertThat(memory.treeResident(101)).hasValue((2000L + 40) * 1024);
    assertThat(memory.treeResident(999)).isEqualTo(OptionalLong.empty());
  }

  @Test
  void treeResident_ofThisJvm_onLinux_isPositive() {
    ProcMemory memory = new ProcMemory();
    if (Files.isDirectory(Path.of("/proc/self/task"))) {
      assertThat(memory.treeResident(ProcessHandle.current().pid()).orElse(0)).isPositive();
      assertThat(memory.available().orElse(0)).isPositive();
    }
  }

  @Test
  void tree_namesTheOomCountersOfItsMemoryCgroups_v1AndV2_andOomKillsReadsThem(@TempDir Path sys)
      throws IOException {
    process(200, 1000, "201");
    process(201, 500, "");
    Files.writeString(proc.resolve("200").resolve("cgroup"), "4:memory:/sims/a\n0::/\n");
    Files.writeString(proc.resolve("201").resolve("cgroup"), "0::/user.slice/sim\n");
    Path v1 = Files.createDirectories(sys.resolve("memory/sims/a")).resolve("memory.oom_control");
    Files.writeString(v1, "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
    Path v2 = Files.createDirectories(sys.resolve("user.slice/sim")).resolve("memory.events");
    Files.writeString(v2, "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n");
    ProcMemory memory = new ProcMemory(proc, sys);

    ProcMemory.Tree tree = memory.tree(200).orElseThrow();

    assertThat(tree.residentBytes()).isEqualTo(1500L * 1024);
    assertThat(tree.oomCounters()).containsExactlyInAnyOrder(v1, v2);
    assertThat(memory.oomKills(v1)).hasValue(2);
    assertThat(memory.oomKills(v2)).hasValue(1);
    assertThat(memory.oomKills(sys.resolve("gone"))).isEmpty();
  }

  private void process(long pid, long rssKib, String children) throws IOException {
    Path dir = proc.resolve(Long.toString(pid));
    Files.createDirectories(dir.resolve("task").resolve(Long.toString(pid)));
    Files.writeString(
        dir.resolve("status"), "Name:\tsim\nVmRSS:\t" + rssKib + " kB\nThreads:\t1\n");
    Files.writeString(
        dir.resolve("task").resolve(Long.toString(pid)).resolve("children"), children);
  }
}
