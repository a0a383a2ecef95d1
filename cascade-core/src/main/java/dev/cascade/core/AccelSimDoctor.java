package dev.cascade.core;

import dev.cascade.core.internal.AppEnvironment;
import dev.cascade.core.internal.doctor.AccelSimChecks;
import dev.cascade.core.internal.doctor.DoctorWork;
import dev.cascade.core.internal.doctor.HostChecks;
import dev.cascade.core.internal.doctor.SmokeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks that this machine can run sims, and says what is wrong in words ({@code cascade doctor}).
 *
 * <p>Always: the Java running Cascade, that the data dir takes writes, and that the emulator runs
 * the demo trace. With an Accel-Sim ({@code CASCADE_ACCELSIM_DIR}, or {@link Builder#accelSimDir}):
 * the folder, its {@code accel-sim.out}, that the loader finds every shared library it needs with
 * the {@code LD_LIBRARY_PATH} sims get ({@link SimCommands#accelSimLibraryPath}), the GPU config
 * folder, and a one-kernel trace run through the real simulator on one config within a time limit.
 * Without one, those checks are skipped and say how to point Cascade at an Accel-Sim.
 *
 * <pre>{@code
 * DoctorReport report = AccelSimDoctor.builder()
 *     .fromEnvironment(System.getenv())
 *     .dataDir(Path.of("data"))
 *     .build()
 *     .check();
 * report.failures().forEach(check -> System.out.println(check.detail() + ": " + check.fix()));
 * }</pre>
 */
public final class AccelSimDoctor {

  /** How long the smoke run may take before it is stopped and failed. */
  public static final Duration DEFAULT_TIME_LIMIT = Duration.ofMinutes(2);

  /**
   * The config the smoke run prefers: in every Accel-Sim's tested-cfgs since 2020, and it needs no
   * interconnect file.
   */
  public static final String DEFAULT_SMOKE_CONFIG = "SM7_QV100";

  private final Map<String, String> environment;
  private final Path dataDir;
  private final String smokeConfig;
  private final Duration timeLimit;

  private AccelSimDoctor(Builder builder) {
    this.environment = Map.copyOf(builder.environment);
    this.dataDir = builder.dataDir;
    this.smokeConfig = builder.smokeConfig;
    this.timeLimit = builder.timeLimit;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs every check, in order, and returns what each found. Never throws for what it finds: a
   * missing folder, an unreadable file or a simulator that will not start is a failed check.
   */
  public DoctorReport check() {
    AppEnvironment variables = new AppEnvironment(environment);
    List<DoctorCheck> checks = new ArrayList<>();
    checks.add(HostChecks.java());
    DoctorCheck data = HostChecks.dataDir(dataDir);
    checks.add(data);
    try (DoctorWork work = DoctorWork.create(dataDir, !data.failed())) {
      checks.add(HostChecks.emulator(work));
      Optional<Path> accelSim = variables.accelSimDir();
      if (accelSim.isEmpty()) {
        checks.addAll(AccelSimChecks.notConfigured());
        return new DoctorReport(checks);
      }
      AccelSimChecks install =
          new AccelSimChecks(
              accelSim.get().toAbsolutePath().normalize(),
              variables.accelSimConfigs(),
              variables.simProcessEnvironment());
      checks.addAll(install.run());
      checks.add(new SmokeRun(install, smokeConfig, timeLimit, work).run());
      return new DoctorReport(checks);
    }
  }

  /** What to check, and where: the environment, the data dir, the smoke run's config and limit. */
  public static final class Builder {
    private final Map<String, String> environment = new HashMap<>();
    private Path dataDir;
    private String smokeConfig;
    private Duration timeLimit = DEFAULT_TIME_LIMIT;

    private Builder() {}

    /**
     * Takes the settings of {@code environment} as {@code cascade serve} would: {@code
     * CASCADE_ACCELSIM_DIR}, {@code CASCADE_ACCELSIM_CONFIGS}, {@code CASCADE_DATA_DIR}, and the
     * variables a local sim inherits ({@code PATH}, {@code LD_LIBRARY_PATH}, ...). Without this
     * call the doctor reads no environment.
     */
    public Builder fromEnvironment(Map<String, String> environment) {
      this.environment.putAll(Objects.requireNonNull(environment, "environment"));
      new AppEnvironment(environment).dataDir().ifPresent(this::dataDir);
      return this;
    }

    /** The built Accel-Sim to check, over {@code CASCADE_ACCELSIM_DIR}. */
    public Builder accelSimDir(Path accelSimDir) {
      environment.put(
          AppEnvironment.ACCELSIM_DIR,
          Objects.requireNonNull(accelSimDir, "accelSimDir").toString());
      return this;
    }

    /** The data dir to check, over {@code CASCADE_DATA_DIR}; its {@code work/} holds the runs. */
    public Builder dataDir(Path dataDir) {
      this.dataDir = Objects.requireNonNull(dataDir, "dataDir").toAbsolutePath().normalize();
      return this;
    }

    /**
     * The GPU config the smoke run uses; by default {@value #DEFAULT_SMOKE_CONFIG} when the folder
     * has it, else the first usable config with a {@code trace.config}.
     */
    public Builder smokeConfig(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("the smoke run's GPU config name is empty; name one");
      }
      this.smokeConfig = name.strip();
      return this;
    }

    /** How long the smoke run may take, 1 s to 1 hour ({@link #DEFAULT_TIME_LIMIT} by default). */
    public Builder timeLimit(Duration timeLimit) {
      Objects.requireNonNull(timeLimit, "timeLimit");
      if (timeLimit.compareTo(Duration.ofSeconds(1)) < 0
          || timeLimit.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException(
            "the smoke run's time limit must be 1 s to 1 hour; got "
                + timeLimit.toSeconds()
                + " s");
      }
      this.timeLimit = timeLimit;
      return this;
    }

    /**
     * The doctor.
     *
     * @throws IllegalStateException when no data dir was given and the environment names none
     */
    public AccelSimDoctor build() {
      if (dataDir == null) {
        throw new IllegalStateException(
            "no data dir to check: call dataDir(...) or give an environment with CASCADE_DATA_DIR");
      }
      return new AccelSimDoctor(this);
    }
  }
}
