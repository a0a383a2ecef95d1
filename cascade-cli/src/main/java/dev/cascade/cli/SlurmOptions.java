package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.ErrorCode;
import dev.cascade.slurm.SlurmLauncher;
import dev.cascade.slurm.SlurmLauncherSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code serve}'s flags for the slurm launcher, over its {@code CASCADE_SLURM_*} variables; used
 * only with {@code --sims slurm}.
 */
final class SlurmOptions {

  @Option(names = "--slurm-partition", paramLabel = "NAME", description = "sbatch --partition.")
  String partition;

  @Option(names = "--slurm-account", paramLabel = "NAME", description = "sbatch --account.")
  String account;

  @Option(names = "--slurm-qos", paramLabel = "NAME", description = "sbatch --qos.")
  String qos;

  @Option(
      names = "--slurm-time",
      paramLabel = "LIMIT",
      description = "sbatch --time per sim, e.g. 1-00:00:00 (default: the partition's).")
  String time;

  @Option(
      names = "--slurm-mem",
      paramLabel = "SIZE",
      description = "sbatch --mem per sim, e.g. 8G (default: the cluster's).")
  String memory;

  @Option(
      names = "--slurm-cpus",
      paramLabel = "N",
      description = "sbatch --cpus-per-task (default 1: Accel-Sim is single-threaded).")
  Integer cpus;

  @Option(
      names = "--slurm-sbatch-arg",
      paramLabel = "ARG",
      description = "One more sbatch argument; repeat for more.")
  List<String> extraArguments = new ArrayList<>();

  @Option(
      names = "--slurm-output-dir",
      paramLabel = "DIR",
      description = "Where Slurm writes each task's own output (default: under the data dir).")
  Path outputDir;

  @Option(
      names = "--slurm-conf",
      paramLabel = "FILE",
      description = "The slurm.conf Slurm's commands use (SLURM_CONF; default: Slurm's lookup).")
  Path conf;

  @Option(
      names = "--slurm-traces",
      paramLabel = "MODE",
      description =
          "How sims reach their trace: shared (the data dir is mounted at the same path on the"
              + " nodes) or fetch (downloaded from the app into node-local scratch); default shared.")
  String traces;

  @Option(
      names = "--slurm-scratch",
      paramLabel = "DIR",
      description = "With fetch, the node-local folder sims work and cache traces in.")
  Path scratch;

  /** The settings: the environment's, then these flags over them. */
  SlurmLauncherSettings settings(Map<String, String> environment) {
    SlurmLauncherSettings settings = SlurmLauncherSettings.fromEnvironment(environment);
    if (partition != null) settings = settings.withPartition(partition);
    if (account != null) settings = settings.withAccount(account);
    if (qos != null) settings = settings.withQos(qos);
    if (time != null) settings = settings.withTimeLimit(time);
    if (memory != null) settings = settings.withMemoryPerSim(memory);
    if (cpus != null) settings = settings.withCpusPerSim(cpus);
    if (!extraArguments.isEmpty()) {
      List<String> all = new ArrayList<>(settings.extraArguments());
      all.addAll(extraArguments);
      settings = settings.withExtraArguments(all);
    }
    if (outputDir != null) settings = settings.withJobOutputDir(outputDir);
    if (conf != null) settings = settings.withSlurmConf(conf);
    if (traces != null) settings = settings.withTraces(SlurmLauncherSettings.traceAccess(traces));
    if (scratch != null) settings = settings.withNodeScratch(scratch);
    return settings;
  }

  /** With {@code --sims slurm}, the builder gets a slurm launcher with these settings. */
  CascadeSettings.Builder apply(
      CascadeSettings.Builder builder, String sims, Map<String, String> environment) {
    if (!SlurmLauncher.NAME.equals(sims)) {
      return builder;
    }
    SlurmLauncher launcher = new SlurmLauncher(settings(environment));
    launcher
        .unavailableReason()
        .ifPresent(
            reason -> {
              throw new CascadeException(
                  ErrorCode.UNAVAILABLE,
                  "the \"slurm\" launcher cannot be used: " + reason,
                  "launcher");
            });
    return builder.launcher(launcher);
  }
}
