package dev.cascade.cli;

import dev.cascade.client.QueuedRun;
import dev.cascade.core.Run;
import dev.cascade.core.RunAction;
import dev.cascade.core.RunSpeed;
import dev.cascade.core.Sim;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.UsersJson;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade runs show ID}: one run of a running Cascade and every sim of it. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "One run on a running Cascade server: its state, and per sim its config, replica, state,"
          + " kernels done / total, current kernel (or why it waits in its launcher's queue),"
          + " heartbeat age and error; then the simulation speed per config (KIPS) next to"
          + " earlier runs of the same trace and config, by simulator build.",
      "Exit code 0 when shown, 1 when there is no such run or the server could not be asked,"
          + " 2 on a usage error."
    })
final class RunsShowCommand implements Callable<Integer> {

  private static final int KERNEL_WIDTH = 40;

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id, as `cascade runs list` shows it.")
  String id;

  @Option(names = "--json", description = "Print the API's JSON of the run, sims included.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    return api.call(
        client -> {
          QueuedRun queued = client.queuedRun(runId);
          Instant now = Instant.now();
          RunSpeed speed = json ? null : client.runs().speed(runId); // --json is the run's alone
          return Printed.answer(
              spec,
              json,
              withActions(queued, now),
              out -> {
                print(out, queued, now);
                printSpeed(out, speed);
              });
        });
  }

  static void print(PrintWriter out, QueuedRun queued, Instant now) {
    Run run = queued.run();
    out.println("Run " + run.id() + " on trace " + run.traceId() + ": " + run.state().wireName());
    String created = run.createdAt().toString();
    TextTable facts = new TextTable("FACT", "VALUE").withoutHeader().indent("  ");
    facts.row("created", created + " (" + Formats.ago(created, now) + " ago)");
    facts.row("owner", run.owner());
    facts.row("entries", Printed.entries(run.entries()));
    facts.row("sims", run.sims().size() + ": " + byState(run));
    String simulators = simulators(run);
    if (!simulators.isEmpty()) {
      facts.row("simulator", simulators);
    }
    for (RunAction action : queued.actions()) {
      facts.row(
          switch (action.action()) {
            case RunAction.CANCEL -> "cancelled";
            case RunAction.RETRY -> "retried";
            case RunAction.RERUN -> "rerun";
            default -> action.action();
          },
          "by "
              + action.user()
              + " at "
              + action.at()
              + (action.newRunId() == null ? "" : " as run " + action.newRunId()));
    }
    facts.print(out);
    out.println();
    TextTable sims =
        new TextTable(
                "CONFIG", ">REPLICA", "STATE", ">KERNELS", "CURRENT", ">HEARTBEAT", "SIM", "ERROR")
            .indent("  ");
    for (Sim sim : run.sims()) {
      sims.row(
          sim.gpuConfig(),
          sim.replica(),
          sim.state().wireName(),
          sim.progress().kernelsDone() + "/" + sim.progress().kernelsTotal(),
          current(sim, queued),
          heartbeat(sim.lastHeartbeatAt(), now),
          sim.attempt() == 1 ? sim.id() : sim.id() + " (attempt " + sim.attempt() + ")",
          SimFailure.describe(sim));
    }
    sims.print(out);
  }

  /**
   * The run's simulation speed per config and against earlier runs' builds, after a blank line;
   * nothing when no sim of the run or before it has a speed:
   *
   * <pre>
   * Simulation speed (KIPS: thousands of simulated thread instructions per wall second, median
   * over succeeded sims):
   *   SM90_H100  210.0 KIPS (2 sims) on Accel-Sim [build accelsim-commit-slow]
   *     0.70x of 300.0 KIPS (290.0-310.0, 3 earlier sims) on Accel-Sim [build ...-fast]: slower
   * </pre>
   */
  static void printSpeed(PrintWriter out, RunSpeed speed) {
    boolean any = speed.configs().stream().anyMatch(c -> c.sims() > 0 || !c.earlier().isEmpty());
    if (!any) {
      return;
    }
    out.println();
    out.println(
        "Simulation speed (KIPS: thousands of simulated thread instructions per wall second,"
            + " median over succeeded sims):");
    for (RunSpeed.Config config : speed.configs()) {
      String name =
          config.gpuConfig()
              + (config.kernels() == null ? "" : " (kernels " + config.kernels() + ")");
      out.println(
          "  "
              + name
              + "  "
              + (config.medianKips() == null
                  ? "no succeeded sim with a speed yet"
                  : kips(config.medianKips())
                      + " ("
                      + Printed.count(config.sims(), "sim")
                      + ")"
                      + (config.simulators().isEmpty()
                          ? ""
                          : " on " + String.join("; ", config.simulators()))));
      for (RunSpeed.Build build : config.earlier()) {
        out.println(
            "    "
                + (build.ratio() == null
                    ? ""
                    : String.format(Locale.ROOT, "%.2fx of ", build.ratio()))
                + kips(build.medianKips())
                + String.format(Locale.ROOT, " (%.1f-%.1f, ", build.minKips(), build.maxKips())
                + Printed.count(build.sims(), "earlier sim")
                + ") on "
                + build.simulator()
                + (build.verdict() == null ? "" : ": " + build.verdict()));
      }
    }
  }

  private static String kips(double kips) {
    return String.format(Locale.ROOT, "%.1f KIPS", kips);
  }

  /** The run's JSON with who did what to it, as the server sent it. */
  private static Map<String, Object> withActions(QueuedRun queued, Instant now) {
    Map<String, Object> run = new LinkedHashMap<>(ApiJson.writeRun(queued.run(), now));
    run.put("actions", queued.actions().stream().map(UsersJson::writeAction).toList());
    return run;
  }

  /** The kernel the sim is on or, while it waits in its launcher's queue, why it waits. */
  static String current(Sim sim, QueuedRun queued) {
    return queued
        .queuedReason(sim.id())
        .map(reason -> "queued: " + reason)
        .orElseGet(() -> Formats.shorten(sim.progress().currentKernel(), KERNEL_WIDTH));
  }

  /**
   * What the sims' logs say produced them, each different one once: {@code Accel-Sim [build
   * accelsim-commit-...], GPGPU-Sim 4.2.0 [build gpgpu-sim_git-commit-...]}; empty before any log
   * printed its builds.
   */
  static String simulators(Run run) {
    java.util.Set<String> seen = new java.util.LinkedHashSet<>();
    for (Sim sim : run.sims()) {
      dev.cascade.core.Provenance p = sim.provenance();
      java.util.List<String> parts = new java.util.ArrayList<>();
      if (p.accelSimBuild() != null) {
        parts.add(built("Accel-Sim", p.accelSimVersion(), p.accelSimBuild()));
      }
      if (p.gpgpuSimBuild() != null) {
        parts.add(built("GPGPU-Sim", p.gpgpuSimVersion(), p.gpgpuSimBuild()));
      }
      if (!parts.isEmpty()) {
        seen.add(String.join(", ", parts));
      }
    }
    return String.join("; ", seen);
  }

  private static String built(String component, String version, String build) {
    return component + (version == null ? "" : " " + version) + " [build " + build + "]";
  }

  /** Sims by state in the order they come: {@code running 2, succeeded 1}. */
  static String byState(Run run) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Sim sim : run.latestAttempts()) {
      counts.merge(sim.state().wireName(), 1, Integer::sum);
    }
    return Printed.counts(counts);
  }

  /** A heartbeat's age as {@code 1.4s ago}; {@code none yet} before the first. */
  static String heartbeat(Instant lastHeartbeat, Instant now) {
    return lastHeartbeat == null
        ? "none yet"
        : Formats.duration(Duration.between(lastHeartbeat, now)) + " ago";
  }
}
