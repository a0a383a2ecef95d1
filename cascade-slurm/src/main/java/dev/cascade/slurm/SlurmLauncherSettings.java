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
 * {@link #fromEnvironment}) and change what you need with the {@code withX} methods, or set several
 * at once with {@link #builder()} / {@link #toBuilder()}. Empty strings leave the choice to the
 * cluster's defaults.
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
    return builder().build();
  }

  /** A builder holding the defaults, to set some fields and {@link Builder#build} once. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The defaults with the {@code CASCADE_SLURM_*} variables that are set. */
  public static SlurmLauncherSettings fromEnvironment(Map<String, String> environment) {
    Builder builder = builder();
    Optional<String> value;
    if ((value = get(environment, "CASCADE_SLURM_PARTITION")).isPresent()) {
      builder.partition(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_ACCOUNT")).isPresent()) {
      builder.account(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_QOS")).isPresent()) {
      builder.qos(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_TIME")).isPresent()) {
      builder.timeLimit(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_MEM")).isPresent()) {
      builder.memoryPerSim(value.get());
    }
    if ((value = get(environment, "CASCADE_SLURM_CPUS")).isPresent()) {
      try {
        builder.cpusPerSim(Integer.parseInt(value.get()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "CASCADE_SLURM_CPUS must be a whole number of CPUs; got \"" + value.get() + "\"", e);
      }
    }
    if ((value = get(environment, "CASCADE_SLURM_SBATCH_ARGS")).isPresent()) {
      builder.extraArguments(Arrays.asList(value.get().split("\\s+")));
    }
    if ((value = get(environment, "CASCADE_SLURM_OUTPUT_DIR")).isPresent()) {
      builder.jobOutputDir(Path.of(value.get()));
    }
    if ((value = get(environment, "CASCADE_SLURM_CONF")).isPresent()) {
      builder.slurmConf(Path.of(value.get()));
    }
    if ((value = get(environment, "CASCADE_SLURM_TRACES")).isPresent()) {
      builder.traces(traceAccess(value.get()));
    }
    if ((value = get(environment, "CASCADE_SLURM_SCRATCH")).isPresent()) {
      builder.nodeScratch(Path.of(value.get()));
    }
    return builder.build();
  }

  public SlurmLauncherSettings withPartition(String partition) {
    return toBuilder().partition(partition).build();
  }

  public SlurmLauncherSettings withAccount(String account) {
    return toBuilder().account(account).build();
  }

  public SlurmLauncherSettings withQos(String qos) {
    return toBuilder().qos(qos).build();
  }

  public SlurmLauncherSettings withTimeLimit(String timeLimit) {
    return toBuilder().timeLimit(timeLimit).build();
  }

  public SlurmLauncherSettings withMemoryPerSim(String memoryPerSim) {
    return toBuilder().memoryPerSim(memoryPerSim).build();
  }

  public SlurmLauncherSettings withCpusPerSim(int cpusPerSim) {
    return toBuilder().cpusPerSim(cpusPerSim).build();
  }

  public SlurmLauncherSettings withExtraArguments(List<String> extraArguments) {
    return toBuilder().extraArguments(extraArguments).build();
  }

  public SlurmLauncherSettings withJobOutputDir(Path jobOutputDir) {
    return toBuilder().jobOutputDir(jobOutputDir).build();
  }

  public SlurmLauncherSettings withSlurmConf(Path slurmConf) {
    return toBuilder().slurmConf(slurmConf).build();
  }

  public SlurmLauncherSettings withCommandTimeout(Duration commandTimeout) {
    return toBuilder().commandTimeout(commandTimeout).build();
  }

  public SlurmLauncherSettings withTraces(TraceAccess traces) {
    return toBuilder().traces(traces).build();
  }

  public SlurmLauncherSettings withNodeScratch(Path nodeScratch) {
    return toBuilder().nodeScratch(nodeScratch).build();
  }

  /**
   * The settings while they are made or changed: the one place that lists every field, with its
   * default. {@link #build} checks them.
   */
  public static final class Builder {
    private String partition = "";
    private String account = "";
    private String qos = "";
    private String timeLimit = "";
    private String memoryPerSim = "";
    private int cpusPerSim = 1;
    private List<String> extraArguments = List.of();
    private Path jobOutputDir;
    private Path slurmConf;
    private Duration commandTimeout = Duration.ofSeconds(30);
    private TraceAccess traces = TraceAccess.SHARED;
    private Path nodeScratch = Path.of("/tmp/cascade-slurm");

    private Builder() {}

    private Builder(SlurmLauncherSettings settings) {
      partition = settings.partition;
      account = settings.account;
      qos = settings.qos;
      timeLimit = settings.timeLimit;
      memoryPerSim = settings.memoryPerSim;
      cpusPerSim = settings.cpusPerSim;
      extraArguments = settings.extraArguments;
      jobOutputDir = settings.jobOutputDir;
      slurmConf = settings.slurmConf;
      commandTimeout = settings.commandTimeout;
      traces = settings.traces;
      nodeScratch = settings.nodeScratch;
    }

    public Builder partition(String partition) {
      this.partition = partition;
      return this;
    }

    public Builder account(String account) {
      this.account = account;
      return this;
    }

    public Builder qos(String qos) {
      this.qos = qos;
      return this;
    }

    public Builder timeLimit(String timeLimit) {
      this.timeLimit = timeLimit;
      return this;
    }

    public Builder memoryPerSim(String memoryPerSim) {
      this.memoryPerSim = memoryPerSim;
      return this;
    }

    public Builder cpusPerSim(int cpusPerSim) {
      this.cpusPerSim = cpusPerSim;
      return this;
    }

    /** Blank words are dropped, so a split of {@code " --hold "} gives {@code [--hold]}. */
    public Builder extraArguments(List<String> extraArguments) {
      this.extraArguments = extraArguments.stream().filter(a -> !a.isBlank()).toList();
      return this;
    }

    public Builder jobOutputDir(Path jobOutputDir) {
      this.jobOutputDir = jobOutputDir;
      return this;
    }

    public Builder slurmConf(Path slurmConf) {
      this.slurmConf = slurmConf;
      return this;
    }

    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
      return this;
    }

    public Builder traces(TraceAccess traces) {
      this.traces = traces;
      return this;
    }

    public Builder nodeScratch(Path nodeScratch) {
      this.nodeScratch = nodeScratch;
      return this;
    }

    /** The settings, checked; throws {@link IllegalArgumentException} naming a bad field. */
    public SlurmLauncherSettings build() {
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
