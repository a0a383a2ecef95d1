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

  private void process(long pid, long rssKib, String children) throws IOException {
    Path dir = proc.resolve(Long.toString(pid));
    Files.createDirectories(dir.resolve("task").resolve(Long.toString(pid)));
    Files.writeString(
        dir.resolve("status"), "Name:\tsim\nVmRSS:\t" + rssKib + " kB\nThreads:\t1\n");
    Files.writeString(
        dir.resolve("task").resolve(Long.toString(pid)).resolve("children"), children);
  }
}
