package dev.cascade.slurm;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import java.nio.file.Path;
import java.util.List;

/**
 * The app in a process of its own, for {@link SlurmRestartIT} to kill with SIGKILL: starts Cascade
 * with the slurm launcher on {@code args[0]} (data dir), {@code args[1]} (slurm.conf), creates a
 * run of two replicas, prints {@code PORT <port> RUN <id>} once both run, and waits to be killed.
 */
public final class SlurmAppMain {

  private SlurmAppMain() {}

  public static void main(String[] args) throws Exception {
    SlurmLauncher launcher =
        new SlurmLauncher(SlurmLauncherSettings.defaults().withSlurmConf(Path.of(args[1])));
    TestApp app = TestApp.start(Path.of(args[0]), launcher, SlurmRestartIT.SIMULATOR, 0, b -> b);
    Run run = app.create(List.of(new RunEntry("SM90_H100", 2)));
    while (!app.cascade.runs().get(run.id()).sims().stream()
        .allMatch(sim -> sim.state() == SimState.RUNNING)) {
      Thread.sleep(100);
    }
    List<String> refs =
        app.cascade.runs().get(run.id()).sims().stream().map(Sim::launcherRef).toList();
    System.out.println("PORT " + app.server.port() + " RUN " + run.id() + " REFS " + refs);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
