package dev.cascade.slurm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The single-node cluster {@code scripts/slurm-cluster.sh start} runs on localhost, for the tests;
 * they skip, saying what is missing and how to get it, when there is none.
 */
final class SlurmCluster {

  private SlurmCluster() {}

  /** The cluster's {@code slurm.conf}: {@code SLURM_CONF}, or where the script writes it. */
  static Path conf() {
    String env = System.getenv("SLURM_CONF");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String dir = System.getenv("CASCADE_SLURM_CLUSTER_DIR");
    return Path.of(dir != null ? dir : "/tmp/cascade-slurm-cluster").resolve("slurm.conf");
  }

  /**
   * Settings that reach the second test cluster, the one with accounting ({@code slurmdbd} over
   * MariaDB) and a {@code MinJobAge} of seconds, which {@code .ci/run} starts beside the first;
   * skips the test when it is not there.
   */
  static SlurmLauncherSettings accountingSettingsOrSkip() {
    String env = System.getenv("CASCADE_SLURM_ACCOUNTING_CONF");
    Path conf = Path.of(env != null && !env.isBlank() ? env : "/tmp/cascade-slurm-acct/slurm.conf");
    SlurmLauncherSettings settings = SlurmLauncherSettings.defaults().withSlurmConf(conf);
    Optional<String> reason =
        Files.isRegularFile(conf)
            ? new SlurmLauncher(settings).unavailableReason()
            : Optional.of("no slurm.conf at " + conf);
    Assumptions.assumeTrue(
        reason.isEmpty(),
        () ->
            "no Slurm cluster with accounting to test against ("
                + reason.orElse("")
                + "): install slurmdbd and mariadb-server too and start one with"
                + " CASCADE_SLURM_CLUSTER_ACCOUNTING=1 CASCADE_SLURM_CLUSTER_DIR=/tmp/cascade-slurm-acct"
                + " CASCADE_SLURM_CLUSTER_PORT=6827 CASCADE_SLURM_CLUSTER_MIN_JOB_AGE=2"
                + " scripts/slurm-cluster.sh start");
    return settings;
  }

  /** Settings that reach the test cluster; skips the test when it is not there. */
  static SlurmLauncherSettings settingsOrSkip() {
    Path conf = conf();
    SlurmLauncherSettings settings = SlurmLauncherSettings.defaults().withSlurmConf(conf);
    Optional<String> reason =
        Files.isRegularFile(conf)
            ? new SlurmLauncher(settings).unavailableReason()
            : Optional.of("no slurm.conf at " + conf);
    Assumptions.assumeTrue(
        reason.isEmpty(),
        () ->
            "no Slurm cluster to test against ("
                + reason.orElse("")
                + "): install slurm-wlm and munge (apt-get install slurm-wlm munge) and start"
                + " one with scripts/slurm-cluster.sh start (as root)");
    return settings;
  }
}
