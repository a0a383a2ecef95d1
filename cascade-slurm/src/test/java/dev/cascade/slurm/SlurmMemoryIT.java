package dev.cascade.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimContract;
import dev.cascade.core.FailureClass;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.LauncherStatus;
import dev.cascade.core.spi.SimLaunch;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory on a real Slurm: the second test cluster samples each step's memory every second and kills
 * a step over its {@code --mem} ({@code JobAcctGatherParams=OverMemoryKill}). A sim that holds 200
 * MiB gets the {@code --mem} its predicted peak asks for, and its peak comes back from {@code
 * sacct}'s MaxRSS; the same sim with a prediction of 100 MiB is killed and classed out of memory.
 */
final class SlurmMemoryIT {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;
  private SlurmLauncher launcher;

  @BeforeEach
  void cluster() throws Exception {
    launcher = new SlurmLauncher(SlurmCluster.accountingSettingsOrSkip());
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/python3")),
        "the memory-hungry sim is a python3 one-liner: apt-get install python3");
    String config =
        new SlurmCommands(launcher.settings().slurmConf(), Duration.ofSeconds(30))
            .run(List.of("scontrol", "show", "config"));
    Assumptions.assumeTrue(
        config.contains("jobacct_gather/linux") && config.contains("OverMemoryKill"),
        "the accounting cluster does not sample memory (it was started by an older"
            + " scripts/slurm-cluster.sh): stop it and start it again");
  }

  /** A sim that touches {@code holdMib} MiB and keeps it 4 s, so the 1 s sampling sees it. */
  private SimLaunch hog(String simId, int holdMib, long predictedBytes) {
    SimContract contract =
        new SimContract(
            URI.create("http://127.0.0.1:9"),
            simId,
            "token-" + simId,
            "r_mem",
            0,
            "demo",
            dir.resolve("data/trace"),
            "SM90_H100",
            null,
            dir.resolve("data"),
            "python3");
    String script =
        "import time\nb = bytearray("
            + holdMib
            + " << 20)\nb[::4096] = b'\\x01' * len(b[::4096])\n"
            + "time.sleep(4)\n";
    return new SimLaunch(
        contract,
        List.of("python3", "-c", script),
        Map.of(),
        dir.resolve("data/work/sims/" + simId),
        dir.resolve("data/work/sims/" + simId + ".out"),
        predictedBytes);
  }

  private LauncherStatus ended(String ref) {
    return await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> launcher.status(List.of(ref)).get(ref),
            status ->
                status != null
                    && (status.phase() == LauncherStatus.Phase.ENDED
                        || status.phase() == LauncherStatus.Phase.KILLED));
  }

  @Test
  void aSimWithinItsPrediction_getsThatMem_andItsPeakComesBackFromAccounting() throws Exception {
    String ref =
        launcher.launchAll(List.of(hog("s_fits", 200, 300 * MIB))).stream()
            .map(LaunchResult::ref)
            .findFirst()
            .orElseThrow();

    assertThat(ended(ref).failure()).isNull();
    String job = ref.split("_")[0];
    String asked =
        new SlurmCommands(launcher.settings().slurmConf(), Duration.ofSeconds(30))
            .run(List.of("sacct", "--noheader", "--parsable2", "--format=ReqMem", "--jobs=" + job))
            .lines()
            .findFirst()
            .orElse("")
            .strip();
    assertThat(asked).isEqualTo("300M");
    // Step records reach accounting a moment after the task's end.
    Long peak =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> launcher.peakMemory(List.of(ref)).get(ref), bytes -> bytes != null);
    assertThat(peak).isBetween(200 * MIB, 300 * MIB);
  }

  @Test
  void aSimOverItsPrediction_isKilledBySlurm_andClassedOutOfMemory() throws Exception {
    String ref =
        launcher.launchAll(List.of(hog("s_over", 200, 100 * MIB))).stream()
            .map(LaunchResult::ref)
            .findFirst()
            .orElseThrow();

    LauncherStatus status = ended(ref);
    assertThat(status.phase()).isEqualTo(LauncherStatus.Phase.KILLED);
    assertThat(status.failure()).isEqualTo(FailureClass.OUT_OF_MEMORY);
    assertThat(status.detail())
        .startsWith("Slurm state FAILED")
        .contains("killed over its memory: peak ")
        .endsWith("of --mem 100 MiB");
  }
}
