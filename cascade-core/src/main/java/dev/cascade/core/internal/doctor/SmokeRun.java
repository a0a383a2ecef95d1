package dev.cascade.core.internal.doctor;

import dev.cascade.accelsim.stats.BuildString;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.LogSummary;
import dev.cascade.agent.ProcessGroups;
import dev.cascade.core.AccelSimDoctor;
import dev.cascade.core.DoctorCheck;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.internal.demo.DemoTraceSeeder;
import dev.cascade.core.internal.run.SimConfigFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs Cascade's one-kernel trace through the real {@code accel-sim.out} on one GPU config, as a
 * sim would run it (the sims' environment, a fresh working folder, its own process group), within a
 * time limit, and reads the outcome from its log.
 */
public final class SmokeRun {

  static final String ID = "smoke";
  static final String TITLE = "one-kernel trace through accel-sim.out";

  private static final Duration STOP_GRACE = Duration.ofSeconds(5);
  private static final int LAST_LINES = 8;

  private final AccelSimChecks install;
  private final String configName;
  private final Duration timeLimit;
  private final DoctorWork work;

  /**
   * @param configName the config to run on; null for {@link AccelSimDoctor#DEFAULT_SMOKE_CONFIG}
   *     when usable, else the first usable config with a trace.config
   */
  public SmokeRun(AccelSimChecks install, String configName, Duration timeLimit, DoctorWork work) {
    this.install = install;
    this.configName = configName;
    this.timeLimit = timeLimit;
    this.work = work;
  }

  /** Runs it, unless an earlier check leaves nothing to run. */
  public DoctorCheck run() {
    if (!install.binaryOk()) {
      return DoctorCheck.skip(
          ID, TITLE, "not run: accel-sim.out failed", "fix accel-sim.out first");
    }
    if (install.usableConfigs().isEmpty()) {
      return DoctorCheck.skip(
          ID, TITLE, "not run: no usable GPU config", "fix the GPU configs first");
    }
    Optional<GpuConfig> chosen = choose();
    if (chosen.isEmpty()) {
      return DoctorCheck.fail(
          ID,
          TITLE,
          "no usable GPU config named \"" + configName + "\"",
          "name one that `cascade configs` lists as usable with --smoke-config, or leave it out");
    }
    try {
      return run(chosen.get());
    } catch (IOException e) {
      return DoctorCheck.fail(
          ID,
          TITLE,
          "could not start " + install.binary() + ": " + Words.of(e),
          "check that it is an executable file for this machine");
    }
  }

  private Optional<GpuConfig> choose() {
    List<GpuConfig> usable = install.usableConfigs();
    if (configName != null) {
      return usable.stream().filter(c -> c.name().equals(configName)).findFirst();
    }
    return usable.stream()
        .filter(c -> c.name().equals(AccelSimDoctor.DEFAULT_SMOKE_CONFIG))
        .filter(c -> install.traceConfig(c).isPresent())
        .findFirst()
        .or(() -> usable.stream().filter(c -> install.traceConfig(c).isPresent()).findFirst())
        .or(() -> usable.stream().findFirst());
  }

  private DoctorCheck run(GpuConfig config) throws IOException {
    Path folder = work.subfolder("smoke");
    Path trace = folder.resolve("trace");
    DemoTraceSeeder.writeSmoke(trace);
    Path runFolder = Files.createDirectories(folder.resolve("run"));
    // As for a sim: the files gpgpusim.config names relatively (.icnt, ...) beside the simulator.
    SimConfigFiles.linkCompanions(config.directory(), runFolder);
    Path log = folder.resolve("accel-sim.log");
    List<String> command = new ArrayList<>();
    ProcessGroups.setsid().ifPresent(setsid -> command.add(setsid.toString()));
    command.addAll(
        List.of(
            install.binary().toString(),
            "-trace",
            trace.resolve("kernelslist.g").toString(),
            "-config",
            config.directory().resolve("gpgpusim.config").toString()));
    Optional<Path> traceConfig = install.traceConfig(config);
    traceConfig.ifPresent(file -> command.addAll(List.of("-config", file.toString())));

    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(runFolder.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(install.simEnvironment());
    long started = System.nanoTime();
    Process process = builder.start();
    boolean finished;
    try {
      finished = process.waitFor(timeLimit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      finished = false;
    } finally {
      stop(process);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    String on =
        "on "
            + config.name()
            + (traceConfig.isPresent() ? "" : " (no trace.config found for it)")
            + ", log "
            + log;
    List<String> lines = lastLines(log);
    if (!finished) {
      work.keep();
      return DoctorCheck.fail(
          ID,
          TITLE,
          "accel-sim.out did not finish within "
              + timeLimit.toSeconds()
              + " s and was stopped "
              + on
              + lastLinesInWords(lines),
          "a one-kernel trace takes seconds: read the log for where it stalled; --time-limit"
              + " gives it longer");
    }
    int exit = process.exitValue();
    Optional<LoaderWords.Finding> loader =
        LoaderWords.find(lines, install.accelSimDir(), install.libraryPathInWords());
    if (loader.isPresent()) {
      work.keep();
      return DoctorCheck.fail(
          ID,
          TITLE,
          "accel-sim.out could not start (exit " + exit + "): " + loader.get().line(),
          loader.get().fix());
    }
    LogSummary summary = LogSummary.read(log);
    LogOutcome outcome = summary.outcome();
    if (outcome.state() == LogOutcome.State.FAILED) {
      work.keep();
      boolean binaryVersion = outcome.reason().contains("unsupported binary version");
      return DoctorCheck.fail(
          ID,
          TITLE,
          "accel-sim.out failed " + on + ": " + outcome.reason(),
          binaryVersion
              ? "this Accel-Sim cannot decode Volta SASS (binary version "
                  + DemoTraceSeeder.SMOKE_BINARY_VERSION
                  + "), which every build since 2020 does: rebuild it from a current"
                  + " accel-sim-framework"
              : "read the log; a deadlock on this tiny trace means the config or the build is"
                  + " broken: try another config with --smoke-config");
    }
    if (exit != 0 || outcome.state() != LogOutcome.State.COMPLETE || summary.kernels().isEmpty()) {
      work.keep();
      String what =
          exit != 0
              ? "accel-sim.out exited with code " + exit
              : "accel-sim.out exited 0 but its log "
                  + (summary.kernels().isEmpty()
                      ? "has no kernel's statistics"
                      : "does not end with \"exit detected\"");
      return DoctorCheck.fail(
          ID,
          TITLE,
          what + " " + on + lastLinesInWords(lines),
          "read the log: the simulator's own last words say what went wrong");
    }
    KernelStats kernel = summary.kernels().getFirst();
    String build =
        summary
            .build(BuildString.Component.ACCEL_SIM)
            .map(b -> ", Accel-Sim build " + b)
            .orElse("");
    return DoctorCheck.pass(
        ID,
        TITLE,
        String.format(
            Locale.ROOT,
            "%d kernel on %s in %.1f s: %d cycles, %d instructions%s",
            summary.kernels().size(),
            config.name(),
            seconds,
            kernel.cycles(),
            kernel.instructions(),
            build));
  }

  /** Stops whatever is left of the simulator's process group (SIGTERM, then SIGKILL). */
  private static void stop(Process process) {
    if (ProcessGroups.unavailableReason().isEmpty()) {
      ProcessGroups.terminate(process.pid(), STOP_GRACE);
    }
    process.destroyForcibly();
    try {
      process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<String> lastLines(Path log) {
    try {
      List<String> all =
          new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
      return all.subList(Math.max(0, all.size() - LAST_LINES), all.size());
    } catch (IOException e) {
      return List.of();
    }
  }

  private static String lastLinesInWords(List<String> lines) {
    List<String> shown = lines.stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
    return shown.isEmpty()
        ? "; it printed nothing"
        : "; its last lines: " + String.join(" | ", shown);
  }
}
