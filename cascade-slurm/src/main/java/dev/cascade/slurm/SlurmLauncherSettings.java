package dev.cascade.slurm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the {@link SlurmLauncher} asks Slurm for. Immutable; start from {@link #defaults()} (or
 * {@link #fromEnvironment}) and change what you need with the {@code withX} methods. Empty strings
 * leave the choice to the cluster's defaults.
 *
 * @param partition {@code --partition} ({@code CASCADE_SLURM_PARTITION}); empty: the default one
 * @param account {@code --account} ({@code CASCADE_SLURM_ACCOUNT}); empty: the user's default
 * @param qos {@code --qos} ({@code CASCADE_SLURM_QOS}); empty: the default QoS
 * @param timeLimit {@code --time} per sim, in Slurm's form ({@code 1-00:00:00}, {@code 90}) ({@code
 *     CASCADE_SLURM_TIME}); empty: the partition's limit
 * @param memoryPerSim {@code --mem} per sim ({@code 8G}) ({@code CASCADE_SLURM_MEM}); empty: the
 *     cluster's default
 * @param cpusPerSim {@code --cpus-per-task} ({@code CASCADE_SLURM_CPUS}, 1: Accel-Sim is
 *     single-threaded)
 * @param extraArguments more {@code sbatch} arguments, before the script ({@code
 *     CASCADE_SLURM_SBATCH_ARGS}, split at spaces)
 * @param jobOutputDir where Slurm writes each task's own output ({@code CASCADE_SLURM_OUTPUT_DIR});
 *     null: {@code <data dir>/work/slurm/<run id>/}. The sim's log goes to Cascade either way.
 * @param slurmConf the {@code slurm.conf} the commands use ({@code CASCADE_SLURM_CONF}, passed as
 *     {@code SLURM_CONF}); null: Slurm's own lookup
 * @param commandTimeout how long one Slurm command may take (30 s)
 * @param traces how sims reach their trace ({@code CASCADE_SLURM_TRACES}, {@code shared} or {@code
 *     fetch}; shared)
 * @param nodeScratch in {@code fetch} mode, the node-local folder sims work in and traces are
 *     cached in ({@code CASCADE_SLURM_SCRATCH}, {@code /tmp/cascade-slurm})
 */
public record SlurmLauncherSettings(
    String partition,
    String account,
    String qos,
    String timeLimit,
    String memoryPerSim,
    int cpusPerSim,
    List<String> extraArguments,
    Path jobOutputDir,
    Path slurmConf,
    Duration commandTimeout,
    TraceAccess traces,
    Path nodeScratch) {

  /** How sims on the nodes reach their trace. */
  public enum TraceAccess {
    /** The data dir is mounted at the same path on the nodes (NFS, Lustre): read in place. */
    SHARED,
    /**
     * The nodes do not see the app's disk: the sim agent downloads the trace from the app into the
     * node's scratch, once per node and trace content, and the sim works there.
     */
    FETCH
  }

  public SlurmLauncherSettings {
    partition = word("partition", partition);
    account = word("account", account);
    qos = word("qos", qos);
    timeLimit = word("timeLimit", timeLimit);
    memoryPerSim = word("memoryPerSim", memoryPerSim);
    if (cpusPerSim < 1 || cpusPerSim > 1024) {
      throw new IllegalArgumentException("cpusPerSim must be 1 to 1024; got " + cpusPerSim);
    }
    extraArguments = List.copyOf(extraArguments);
    Objects.requireNonNull(traces, "traces");
    Objects.requireNonNull(nodeScratch, "nodeScratch");
    if (!nodeScratch.isAbsolute()) {
      throw new IllegalArgumentException(
          "the node scratch folder must be an absolute path; got \"" + nodeScratch + "\"");
    }
    Objects.requireNonNull(commandTimeout, "commandTimeout");
    if (commandTimeout.isNegative() || commandTimeout.isZero()) {
      throw new IllegalArgumentException("commandTimeout must be positive; got " + commandTimeout);
    }
  }

  /** The cluster's defaults for everything, one CPU per sim, 30 s per command. */
  public static SlurmLauncherSettings defaults() {
    return new SlurmLauncherSettings(
        "",
        "",
        "",
        "",
        "",
        1,
        List.of(),
        null,
        null,
        Duration.ofSeconds(30),
        TraceAccess.SHARED,
        Path.of("/tmp/cascade-slurm"));
  }

  /** The defaults with the {@code CASCADE_SLURM_*} variables that are set. */
  public static SlurmLauncherSettings fromEnvironment(Map<String, String> environment) {
    SlurmLauncherSettings settings = defaults();
    Optional<String> value;
    if ((value = get(environment, "CASCADE_SLURM_PARTITION")).isPresent()) {
      settings = settings.withPartition(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_ACCOUNT")).isPresent()) {
      settings = settings.withAccount(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_QOS")).isPresent()) {
      settings = settings.withQos(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_TIME")).isPresent()) {
      settings = settings.withTimeLimit(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_MEM")).isPresent()) {
      settings = settings.withMemoryPerSim(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_CPUS")).isPresent()) {
      try {
        settings = settings.withCpusPerSim(Integer.parseInt(value.get()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "CASCADE_SLURM_CPUS must be a whole number of CPUs; got \"" + value.get() + "\"", e);
      }
    }
    if ((value = get(environment, "CASCADE_SLURM_SBATCH_ARGS")).isPresent()) {
      settings = settings.withExtraArguments(Arrays.asList(value.get().split("\\s+")));
    }
    if ((value = get(environment, "CASCADE_SLURM_OUTPUT_DIR")).isPresent()) {
      settings = settings.withJobOutputDir(Path.of(value.get()));
    }
    if ((value = get(environment, "CASCADE_SLURM_CONF")).isPresent()) {
      settings = settings.withSlurmConf(Path.of(value.get()));
    }
    if ((value = get(environment, "CASCADE_SLURM_TRACES")).isPresent()) {
      settings = settings.withTraces(traceAccess(value.get()));
    }
    if ((value = get(environment, "CASCADE_SLURM_SCRATCH")).isPresent()) {
      settings = settings.withNodeScratch(Path.of(value.get()));
    }
    return settings;
  }

  public SlurmLauncherSettings withPartition(String partition) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withAccount(String account) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withQos(String qos) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withTimeLimit(String timeLimit) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withMemoryPerSim(String memoryPerSim) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withCpusPerSim(int cpusPerSim) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withExtraArguments(List<String> extraArguments) {
    List<String> words = extraArguments.stream().filter(a -> !a.isBlank()).toList();
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        words,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withJobOutputDir(Path jobOutputDir) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withSlurmConf(Path slurmConf) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withCommandTimeout(Duration commandTimeout) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withTraces(TraceAccess traces) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  public SlurmLauncherSettings withNodeScratch(Path nodeScratch) {
    return new SlurmLauncherSettings(
        partition,
        account,
        qos,
        timeLimit,
        memoryPerSim,
        cpusPerSim,
        extraArguments,
        jobOutputDir,
        slurmConf,
        commandTimeout,
        traces,
        nodeScratch);
  }

  private static Optional<String> get(Map<String, String> environment, String name) {
    return Optional.ofNullable(environment.get(name)).map(String::strip).filter(v -> !v.isEmpty());
  }

  /** {@code shared} or {@code fetch}; the error names the accepted values. */
  public static TraceAccess traceAccess(String value) {
    return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "shared" -> TraceAccess.SHARED;
      case "fetch" -> TraceAccess.FETCH;
      default ->
          throw new IllegalArgumentException(
              "the Slurm trace access must be shared or fetch; got \"" + value + "\"");
    };
  }

  /** A value that goes into one {@code sbatch} option: no spaces, so it stays one argument. */
  private static String word(String name, String value) {
    String stripped = value == null ? "" : value.strip();
    if (stripped.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException(
          "the Slurm " + name + " cannot contain spaces; got \"" + value + "\"");
    }
    return stripped;
  }
}
