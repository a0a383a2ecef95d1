package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.core.testkit.FakeAccelSim;
import dev.cascade.core.testkit.SimAgents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local queue by memory, with a memory-hungry fake simulator: each sim (the sim agent running a
 * script) holds {@value #HOLD_MIB} MiB in a Python process for 3 s, then prints a complete
 * one-kernel log. The sims may hold {@value #LIMIT_MIB} MiB together ({@code
 * CASCADE_SIM_MEMORY_LIMIT}), which fits two of them but not three, on four slots. One replica's
 * first attempt runs in a memory cgroup whose limit is below what it holds, so the kernel's
 * out-of-memory killer ends it; its next attempt runs without it.
 */
final class MemoryQueueIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long MIB = 1024L * 1024;
  private static final int HOLD_MIB = 400;
  private static final int LIMIT_MIB = 1200;
  private static final int CGROUP_LIMIT_MIB = 160;
  private static final int SIMS = 5;
  private static final int OOM_REPLICA = 2;

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5), 4);
  private Cascade cascade;
  private Path cgroup;

  @AfterEach
  void stop() throws IOException {
    try {
      if (cascade != null) {
        for (Run run : cascade.runs().list()) {
          for (Sim sim : run.sims()) {
            if (sim.launcherRef() != null) {
              launcher.stop(sim.launcherRef());
            }
          }
        }
        cascade.close();
      }
    } finally {
      SimAgents.stopUnder(dir);
      if (cgroup != null) {
        Files.deleteIfExists(cgroup); // empty once its processes ended: rmdir
      }
    }
  }

  @Test
  void memoryHungrySims_onALimitThatFitsTwo_neverRunMoreThanTwo_andAnOomKilledOneIsRetried()
      throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
    Path python = Path.of("/usr/bin/python3");
    Assumptions.assumeTrue(
        Files.isExecutable(python), "needs /usr/bin/python3 for the memory-hungry fake simulator");
    cgroup = memoryCgroup(CGROUP_LIMIT_MIB * MIB).orElse(null);
    Assumptions.assumeTrue(
        cgroup != null,
        "needs a memory cgroup it can make (root, with cgroup v1's memory controller or v2's"
            + " mounted writable at /sys/fs/cgroup) to have the kernel's out-of-memory killer end a"
            + " sim");
    Path dataDir = dir.resolve("data");
    TestTraces.writeReady(dataDir, "hungry", 1);
    Path holders = Files.createDirectories(dir.resolve("holding"));
    Path counts = dir.resolve("counts");
    Path log = Files.writeString(dir.resolve("sim.log"), FakeAccelSim.LOG);
    Path script =
        Files.writeString(
            dir.resolve("hungry-sim.sh"),
            """
            #!/bin/bash
            set -e
            if [ "$CASCADE_REPLICA" = "%d" ] && [ ! -e "%s/oom-tried" ]; then
              touch "%s/oom-tried"
              echo $$ > "%s/cgroup.procs"  # below what it holds: the OOM killer ends it
              sleep 1
            fi
            /usr/bin/python3 -c '
            import os, sys, time
            held = b"\\x01" * (%d * 1024 * 1024)  # written, so resident
            mine = os.path.join("%s", os.environ["CASCADE_SIM_ID"])
            open(mine, "w").close()
            with open("%s", "a") as counts:
                counts.write(str(len(os.listdir("%s"))) + "\\n")
            time.sleep(3)
            os.remove(mine)
            '
            cat "%s"
            """
                .formatted(OOM_REPLICA, dir, dir, cgroup, HOLD_MIB, holders, counts, holders, log));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-XX:+UseSerialGC",
            "-Xmx64m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            SimAgentMain.classPath(),
            SimAgentMain.class.getName(),
            "--heartbeat-millis",
            "200",
            "--chunk-millis",
            "200",
            "--",
            "/bin/bash",
            script.toString()));
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .memory(
                MemorySettings.defaults().withReserveBytes(0).withSimLimitBytes(LIMIT_MIB * MIB))
            .monitorInterval(Duration.ofMillis(250))
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .finishedStopDelay(Duration.ofSeconds(2))
            .simCommand(command)
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    cascade.traces().await("hungry", WAIT);

    Run run = cascade.runs().create("hungry", List.of(new RunEntry("SM90_H100", SIMS)));
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> cascade.runs().get(run.id()).state() == RunState.SUCCEEDED);

    Run done = cascade.runs().get(run.id());
    List<Sim> replica = done.sims().stream().filter(s -> s.replica() == OOM_REPLICA).toList();
    assertThat(replica).extracting(Sim::attempt).containsExactlyInAnyOrder(1, 2);
    Sim killed = replica.stream().filter(s -> s.attempt() == 1).findFirst().orElseThrow();
    assertThat(killed.state()).isEqualTo(SimState.FAILED);
    assertThat(killed.failureClass()).as(killed.error()).isEqualTo(FailureClass.OUT_OF_MEMORY);
    assertThat(killed.error()).contains("out-of-memory killer").contains(cgroup.toString());
    assertThat(killed.exitCode()).isEqualTo(137);
    assertThat(done.latestAttempts())
        .hasSize(SIMS)
        .allSatisfy(
            sim -> {
              assertThat(sim.state()).as(sim::toString).isEqualTo(SimState.SUCCEEDED);
              assertThat(sim.peakMemoryBytes()).as(sim::toString).isGreaterThan(HOLD_MIB * MIB);
            });
    List<Integer> heldAtOnce = Files.readAllLines(counts).stream().map(Integer::parseInt).toList();
    System.out.printf(
        "sims holding %d MiB at once, as each started holding: %s; peaks (MiB): %s%n",
        HOLD_MIB,
        heldAtOnce,
        done.sims().stream()
            .sorted(Comparator.comparing(Sim::replica))
            .map(s -> s.replica() + "/" + s.attempt() + "=" + s.peakMemoryBytes() / MIB)
            .toList());
    assertThat(heldAtOnce).hasSize(SIMS).allSatisfy(n -> assertThat(n).isBetween(1, 2));
    assertThat(heldAtOnce).contains(2); // memory, not the four slots, kept it to two
  }

  /**
   * A new memory cgroup limited to {@code limitBytes}, without swap: cgroup v1's {@code memory}
   * controller, else v2. Empty when none can be made here.
   */
  private static Optional<Path> memoryCgroup(long limitBytes) {
    String name = "cascade-memory-it-" + UUID.randomUUID();
    Path v1 = Path.of("/sys/fs/cgroup/memory");
    Path v2 = Path.of("/sys/fs/cgroup");
    Path group = null;
    try {
      if (Files.isRegularFile(v1.resolve("cgroup.procs"))) {
        group = Files.createDirectory(v1.resolve(name));
        Files.writeString(group.resolve("memory.limit_in_bytes"), Long.toString(limitBytes));
        Path swap = group.resolve("memory.memsw.limit_in_bytes");
        if (Files.exists(swap)) {
          Files.writeString(swap, Long.toString(limitBytes));
        }
        return Optional.of(group);
      }
      if (Files.isRegularFile(v2.resolve("cgroup.controllers"))
          && Files.readString(v2.resolve("cgroup.subtree_control")).contains("memory")) {
        group = Files.createDirectory(v2.resolve(name));
        Files.writeString(group.resolve("memory.max"), Long.toString(limitBytes));
        Files.writeString(group.resolve("memory.swap.max"), "0");
        return Optional.of(group);
      }
    } catch (IOException | UnsupportedOperationException e) {
      if (group != null) {
        try {
          Files.deleteIfExists(group); // made, but its limit could not be set: not of use
        } catch (IOException gone) {
          // nothing in it: the next boot clears it
        }
      }
    }
    return Optional.empty();
  }
}
