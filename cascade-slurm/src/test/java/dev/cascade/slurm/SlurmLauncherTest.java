package dev.cascade.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.agent.SimContract;
import dev.cascade.core.FailureClass;
import dev.cascade.core.spi.LauncherStatus;
import dev.cascade.core.spi.SimLaunch;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's parts that need no cluster: its files, its sbatch call, its state table. */
final class SlurmLauncherTest {

  private static final String TOKEN = "secret-token-that-must-not-leak";

  @TempDir Path dir;

  private SimLaunch launch(String simId, int replica) {
    SimContract contract =
        new SimContract(
            URI.create("http://login1:8080"),
            simId,
            TOKEN + "-" + replica,
            "r_1",
            replica,
            "demo",
            dir.resolve("data/s3/cascade/accelsim-traces/demo"),
            "SM90_H100",
            null,
            dir.resolve("data"),
            "java -jar agent.jar");
    return new SimLaunch(
        contract,
        List.of("java", "-cp", "it's here", "Agent"),
        Map.of("ODD", "a 'quoted' $HOME `x` value"),
        dir.resolve("data/work/sims/" + simId),
        dir.resolve("data/work/sims/" + simId + ".out"));
  }

  @Test
  void jobFiles_keepEachTokenInATaskFileOnlyTheUserCanRead() throws Exception {
    SlurmLauncherSettings settings = SlurmLauncherSettings.defaults();
    List<SlurmTask> tasks =
        List.of(SlurmTask.of(launch("s_a", 0), settings), SlurmTask.of(launch("s_b", 1), settings));
    Path folder = dir.resolve("job");
    Path script = SlurmJobFiles.write(folder, tasks, List.of("java", "Agent"), false);

    assertThat(Files.readString(script)).doesNotContain(TOKEN);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
        .isEqualTo("rwx------");
    Path task1 = folder.resolve("task-1.env");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(task1)))
        .isEqualTo("rw-------");
    // The shell reads back exactly what was written, quotes and dollars included.
    Process shell =
        new ProcessBuilder(
                "sh",
                "-c",
                ". \"$1\"; printf '%s|%s|%s|%s' \"$sim_token\" \"$ODD\" \"$sim_dir\""
                    + " \"$(env | grep -c TOKEN)\"",
                "sh",
                task1.toString())
            .start();
    String read = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(shell.waitFor()).isZero();
    assertThat(read)
        .isEqualTo(
            TOKEN + "-1|a 'quoted' $HOME `x` value|" + dir.resolve("data/work/sims/s_b") + "|0");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void jobScript_givesTheSimItsTokenOnStdin_neverInItsEnvironment_andDeletesTheTaskFile(
      boolean embed) throws Exception {
    SlurmLauncherSettings settings = SlurmLauncherSettings.defaults();
    List<SlurmTask> tasks =
        List.of(SlurmTask.of(launch("s_a", 0), settings), SlurmTask.of(launch("s_b", 1), settings));
    Path folder = dir.resolve("job");
    List<String> sim =
        List.of("sh", "-c", "read -r t; echo \"token=$t in-env=$(env | grep -c TOKEN)\"");
    Path script = SlurmJobFiles.write(folder, tasks, sim, embed);

    ProcessBuilder task = new ProcessBuilder("sh", script.toString());
    task.environment().put("SLURM_ARRAY_TASK_ID", "1");
    task.environment().remove("CASCADE_SIM_TOKEN");
    Process shell = task.start();
    assertThat(shell.waitFor()).isZero();

    assertThat(dir.resolve("data/work/sims/s_b.out"))
        .content()
        .isEqualTo("token=" + TOKEN + "-1 in-env=0\n");
    assertThat(folder.resolve("task-1.env")).doesNotExist();
  }

  @Test
  void status_whileTheControllerDoesNotAnswer_isUnknownForEveryTask_notNothing() {
    List<List<String>> asked = new java.util.ArrayList<>();
    SlurmCommands unreachable =
        new SlurmCommands(null, java.time.Duration.ofSeconds(5)) {
          @Override
          String run(List<String> command) throws SlurmException {
            asked.add(command);
            // What squeue prints with slurmctld down.
            throw new SlurmException(
                "squeue failed (exit 1): squeue: error: Unable to contact slurm controller"
                    + " (connect failure)",
                null);
          }
        };
    SlurmLauncher launcher = new SlurmLauncher(SlurmLauncherSettings.defaults(), unreachable);

    var statuses = launcher.status(List.of("14_0", "14_1", "15_0"));

    assertThat(statuses).containsOnlyKeys("14_0", "14_1", "15_0");
    assertThat(statuses.values())
        .allSatisfy(
            status -> {
              assertThat(status.phase())
                  .isEqualTo(dev.cascade.core.spi.LauncherStatus.Phase.UNKNOWN);
              assertThat(status.detail())
                  .contains("Slurm cannot be asked")
                  .contains("Unable to contact slurm controller");
            });
    assertThat(asked.getFirst()).contains("squeue");
  }

  @Test
  void sbatchCall_isOneArrayWithTheSettings_andNoSecret() {
    SlurmLauncher launcher =
        new SlurmLauncher(
            SlurmLauncherSettings.defaults()
                .withPartition("gpu-sim")
                .withAccount("arch")
                .withQos("long")
                .withTimeLimit("1-00:00:00")
                .withMemoryPerSim("16G")
                .withCpusPerSim(2)
                .withExtraArguments(List.of("--exclusive", " ")));
    List<String> command =
        launcher.sbatchCommand(
            launch("s_a", 0), 4, dir.resolve("job"), dir.resolve("out"), dir.resolve("job.sh"));

    assertThat(command)
        .startsWith("sbatch", "--parsable")
        .contains(
            "--array=0-3",
            "--no-requeue",
            "--partition=gpu-sim",
            "--account=arch",
            "--qos=long",
            "--time=1-00:00:00",
            "--mem=16G",
            "--cpus-per-task=2",
            "--exclusive",
            "--output=" + dir.resolve("out/cascade-%A_%a.out"))
        .endsWith(dir.resolve("job.sh").toString());
    assertThat(String.join(" ", command)).doesNotContain(TOKEN);
  }

  @Test
  void sbatchCall_asksForThePredictedMemory_onlyWhenTheUserSetNone() {
    long predicted = 1536L * 1024 * 1024 + 1; // a byte over 1.5 GiB
    List<String> unset =
        new SlurmLauncher(SlurmLauncherSettings.defaults())
            .sbatchCommand(
                launch("s_a", 0),
                1,
                predicted,
                dir.resolve("job"),
                dir.resolve("out"),
                dir.resolve("job.sh"));
    assertThat(unset).contains("--mem=1537M");

    List<String> userMem =
        new SlurmLauncher(SlurmLauncherSettings.defaults().withMemoryPerSim("8G"))
            .sbatchCommand(
                launch("s_a", 0),
                1,
                predicted,
                dir.resolve("job"),
                dir.resolve("out"),
                dir.resolve("job.sh"));
    assertThat(userMem.stream().filter(a -> a.startsWith("--mem"))).containsExactly("--mem=8G");

    List<String> userExtra =
        new SlurmLauncher(
                SlurmLauncherSettings.defaults().withExtraArguments(List.of("--mem-per-cpu=2G")))
            .sbatchCommand(
                launch("s_a", 0),
                1,
                predicted,
                dir.resolve("job"),
                dir.resolve("out"),
                dir.resolve("job.sh"));
    assertThat(userExtra.stream().filter(a -> a.startsWith("--mem")))
        .containsExactly("--mem-per-cpu=2G");

    List<String> none =
        new SlurmLauncher(SlurmLauncherSettings.defaults())
            .sbatchCommand(
                launch("s_a", 0),
                1,
                0,
                dir.resolve("job"),
                dir.resolve("out"),
                dir.resolve("job.sh"));
    assertThat(none).noneMatch(a -> a.startsWith("--mem"));
  }

  @Test
  void maxRss_isTheLargestOfEachTasksSteps_inBytes() {
    assertThat(
            SlurmStates.maxRss(
                """
                14_0|
                14_0.batch|524288K
                14_0.extern|1024K
                14_1|
                14_1.batch|1.50G
                14_1.0|2048
                14_2|
                14_2.batch|
                """))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("14_0", 512L * 1024 * 1024, "14_1", 1536L * 1024 * 1024));
  }

  @Test
  void overMemory_isAStepKilledBySignal9AbovePeakItsTaskAskedFor() {
    // As sacct printed them on the test cluster (OverMemoryKill): 29_1 held 184 MiB under 100M.
    assertThat(
            SlurmStates.overMemory(
                """
                29_0|COMPLETED|0:0|100M|
                29_0.batch|COMPLETED|0:0||35240K
                29_1|FAILED|0:9|100M|
                29_1.batch|CANCELLED by 0|0:9||188872K
                29_2|CANCELLED by 0|0:9|1Gn|
                29_2.batch|CANCELLED by 0|0:9||204800K
                29_3|FAILED|1:0|100M|
                29_3.batch|FAILED|1:0||512000K
                29_4|FAILED|0:9||
                29_4.batch|CANCELLED by 0|0:9||
                """))
        .containsExactlyEntriesOf(
            Map.of("29_1", new SlurmStates.OverMemory(100L << 20, 188872L << 10)));
    // squeue shows the end before accounting has the task's end and its step's record.
    assertThat(
            SlurmStates.notYetAccounted(
                """
                30_0|FAILED|0:9|100M|
                30_1|FAILED|0:9|100M|
                30_1.batch|CANCELLED by 0|0:9||188872K
                30_2|FAILED|1:0|100M|
                30_3|RUNNING|0:0|100M|
                """,
                List.of("30_0", "30_1", "30_2", "30_3", "30_4")))
        .containsExactlyInAnyOrder("30_0", "30_3", "30_4");
    assertThat(new SlurmStates.OverMemory(100L << 20, 188872L << 10).describe())
        .isEqualTo("killed over its memory: peak 184.4 MiB of --mem 100 MiB");
  }

  @Test
  void fetchMode_pointsTheTasksViewAtTheNodeScratch() {
    SlurmLauncherSettings settings =
        SlurmLauncherSettings.defaults()
            .withTraces(SlurmLauncherSettings.TraceAccess.FETCH)
            .withNodeScratch(Path.of("/scratch/cascade"));
    SlurmTask task = SlurmTask.of(launch("s_a", 0), settings);

    assertThat(task.environment())
        .containsEntry(SimContract.DATA_DIR, "/scratch/cascade")
        .containsEntry(SimContract.TRACE_FETCH_DIR, "/scratch/cascade/traces");
    assertThat(task.environment().values()).noneMatch(v -> v.startsWith(dir.toString()));
    assertThat(task.workDir()).isEqualTo(Path.of("/scratch/cascade/work/sims/s_a"));
    assertThat(SlurmJobFiles.embeddedScript(List.of(task), List.of("java")))
        .contains("case \"$SLURM_ARRAY_TASK_ID\" in\n0)\n");
  }

  @Test
  void slurmStates_mapToQueuedRunningOrEnded() {
    Map<String, LauncherStatus> statuses =
        SlurmStates.parse(
            "7_0|PENDING|Priority\n7_1|RUNNING|None\n7_2|TIMEOUT|TimeLimit\n"
                + "8|CANCELLED|JobHeldUser\n9_0|CANCELLED by 0|\n9_1|OUT_OF_MEMORY|OutOfMemory\n");

    assertThat(statuses.get("7_0"))
        .isEqualTo(LauncherStatus.queued("Slurm state PENDING (Priority)"));
    assertThat(statuses.get("7_1")).isEqualTo(LauncherStatus.running("Slurm state RUNNING"));
    assertThat(statuses.get("7_2"))
        .isEqualTo(
            LauncherStatus.killed("Slurm state TIMEOUT (TimeLimit)", FailureClass.TIMED_OUT));
    assertThat(statuses.get("8").phase()).isEqualTo(LauncherStatus.Phase.ENDED);
    assertThat(statuses.get("9_0"))
        .isEqualTo(LauncherStatus.ended("Slurm state CANCELLED by 0", FailureClass.KILLED));
    assertThat(statuses.get("9_1"))
        .isEqualTo(
            LauncherStatus.killed(
                "Slurm state OUT_OF_MEMORY (OutOfMemory)", FailureClass.OUT_OF_MEMORY));
  }

  @Test
  void slurmEnds_carryTheirFailureClassAsAType() {
    assertThat(SlurmStates.of("DEADLINE", null).failure()).isEqualTo(FailureClass.TIMED_OUT);
    assertThat(SlurmStates.of("NODE_FAIL", "None").failure()).isEqualTo(FailureClass.KILLED);
    assertThat(SlurmStates.of("PREEMPTED", null).failure()).isEqualTo(FailureClass.KILLED);
    assertThat(SlurmStates.of("BOOT_FAIL", null).failure()).isEqualTo(FailureClass.LAUNCH_FAILED);
    // An end of the task's own: the sim's report and log tell why.
    assertThat(SlurmStates.of("FAILED", "NonZeroExitCode").failure()).isNull();
    assertThat(SlurmStates.of("PENDING", "Priority").failure()).isNull();
  }

  @Test
  void settings_fromTheEnvironment_andBadValuesNamed() {
    SlurmLauncherSettings settings =
        SlurmLauncherSettings.fromEnvironment(
            Map.of(
                "CASCADE_SLURM_PARTITION", "gpu",
                "CASCADE_SLURM_CPUS", "4",
                "CASCADE_SLURM_SBATCH_ARGS", "--exclusive  --nice=10",
                "CASCADE_SLURM_TRACES", "fetch"));
    assertThat(settings.partition()).isEqualTo("gpu");
    assertThat(settings.cpusPerSim()).isEqualTo(4);
    assertThat(settings.extraArguments()).containsExactly("--exclusive", "--nice=10");
    assertThat(settings.traces()).isEqualTo(SlurmLauncherSettings.TraceAccess.FETCH);

    assertThatThrownBy(
            () -> SlurmLauncherSettings.fromEnvironment(Map.of("CASCADE_SLURM_CPUS", "two")))
        .hasMessage("CASCADE_SLURM_CPUS must be a whole number of CPUs; got \"two\"");
    assertThatThrownBy(() -> SlurmLauncherSettings.defaults().withPartition("a b"))
        .hasMessage("the Slurm partition cannot contain spaces; got \"a b\"");
    assertThatThrownBy(() -> SlurmLauncherSettings.traceAccess("nfs"))
        .hasMessage("the Slurm trace access must be shared or fetch; got \"nfs\"");
  }

  @Test
  void unavailable_whenTheControllerDoesNotAnswer() throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(
        conf, "ClusterName=none\nSlurmctldHost=localhost\nSlurmctldPort=1\nAuthType=auth/none\n");
    SlurmLauncher launcher =
        new SlurmLauncher(SlurmLauncherSettings.defaults().withSlurmConf(conf));

    assertThat(launcher.unavailableReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .containsAnyOf(
                        "the Slurm controller does not answer", "sbatch is not on the PATH"));
    assertThat(launcher.launchAll(List.of(launch("s_a", 0))))
        .singleElement()
        .satisfies(
            result ->
                assertThat(result.failure().getMessage())
                    .startsWith("the slurm launcher cannot run here: "));
  }
}
