package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.slurm.SlurmLauncherSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code serve}'s Slurm flags, over the {@code CASCADE_SLURM_*} variables. */
final class SlurmOptionsTest {

  private static SlurmOptions parse(String... args) {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve).parseArgs(args);
    return serve.slurm;
  }

  @Test
  void flags_winOverTheEnvironment() {
    SlurmOptions options =
        parse(
            "--sims", "slurm",
            "--slurm-partition", "gpu-sim",
            "--slurm-time", "1-00:00:00",
            "--slurm-mem", "16G",
            "--slurm-cpus", "2",
            "--slurm-sbatch-arg", "--exclusive",
            "--slurm-sbatch-arg", "--constraint=avx512",
            "--slurm-traces", "fetch",
            "--slurm-scratch", "/local/scratch");
    SlurmLauncherSettings settings =
        options.settings(
            Map.of(
                "CASCADE_SLURM_PARTITION", "from-env",
                "CASCADE_SLURM_ACCOUNT", "arch",
                "CASCADE_SLURM_SBATCH_ARGS", "--nice=5"));

    assertThat(settings.partition()).isEqualTo("gpu-sim");
    assertThat(settings.account()).isEqualTo("arch");
    assertThat(settings.timeLimit()).isEqualTo("1-00:00:00");
    assertThat(settings.memoryPerSim()).isEqualTo("16G");
    assertThat(settings.cpusPerSim()).isEqualTo(2);
    assertThat(settings.extraArguments())
        .containsExactly("--nice=5", "--exclusive", "--constraint=avx512");
    assertThat(settings.traces()).isEqualTo(SlurmLauncherSettings.TraceAccess.FETCH);
    assertThat(settings.nodeScratch()).isEqualTo(Path.of("/local/scratch"));
  }

  @Test
  void badTraceMode_isNamed() {
    SlurmOptions options = parse("--slurm-traces", "nfs");
    assertThatThrownBy(() -> options.settings(Map.of()))
        .hasMessage("the Slurm trace access must be shared or fetch; got \"nfs\"");
  }

  @Test
  void publicUrl_isItsOwnFlag() {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve)
        .parseArgs("--bind", "0.0.0.0", "--public-url", "http://login1.cluster:8080");
    assertThat(serve.publicUrl).isEqualTo("http://login1.cluster:8080");
    assertThat(serve.bind).isEqualTo("0.0.0.0");
  }
}
