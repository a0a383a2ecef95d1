package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole run through the real {@code accel-sim.out} of the build {@code CASCADE_ACCELSIM_DIR}
 * names, on an Accel-Sim folder laid out as upstream's: the fixture's {@code SM80_A100}
 * gpgpusim.config under {@code gpu-simulator/gpgpu-sim/configs/tested-cfgs/}, its trace.config
 * apart under {@code gpu-simulator/configs/tested-cfgs/}, and the build's binary and libraries
 * linked in. The fixture trace flashinfer-gemm (8 kernels) must come out with the cycles the same
 * simulator prints when run by hand on the same two files (46752 in all with the build of {@code
 * build-accelsim.sh}), and so must a variant setting the launch latency it already has; a variant
 * launching kernels sooner gives the cycles of the simulator run by hand with that option. Skips,
 * saying why, without {@code CASCADE_ACCELSIM_DIR} or the fixtures.
 */
final class AccelSimRealRunIT {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures")).resolve("accelsim");

  private static final Duration WAIT = Duration.ofMinutes(10);

  private static final Pattern SIM_CYCLE = Pattern.compile("(?m)^gpu_sim_cycle = (\\d+)$");

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private Cascade cascade;

  @AfterEach
  void stop() {
    if (cascade == null) {
      return;
    }
    try {
      for (Run run : cascade.runs().list()) {
        for (Sim sim : run.sims()) {
          if (sim.launcherRef() != null) {
            launcher.stop(sim.launcherRef());
          }
        }
      }
    } finally {
      cascade.server().ifPresent(CascadeServer::close);
      cascade.close();
    }
  }

  @Test
  void flashinferGemmOnA100_givesTheCyclesAccelSimPrintsByHand() throws Exception {
    String accelSimDir = System.getenv("CASCADE_ACCELSIM_DIR");
    assumeTrue(
        accelSimDir != null && !accelSimDir.isBlank(),
        "CASCADE_ACCELSIM_DIR is not set: set it to a built accel-sim-framework folder to run a"
            + " trace through the real simulator");
    Path build = Path.of(accelSimDir).toAbsolutePath().normalize();
    Path binary =
        SimCommands.accelSimIn(build)
            .orElseThrow(
                () ->
                    new AssertionError(
                        "CASCADE_ACCELSIM_DIR="
                            + accelSimDir
                            + " has no executable "
                            + SimCommands.ACCELSIM_BINARY));
    Path gemm = FIXTURES.resolve("real-traces/flashinfer-gemm");
    Path a100 = FIXTURES.resolve("tested-cfgs/SM80_A100");
    assumeTrue(
        Files.isDirectory(gemm) && Files.isDirectory(a100),
        "needs the fixtures "
            + gemm
            + " and "
            + a100
            + " (beside the clone; a fresh clone has none)");
    assumeTrue(
        launcher.unavailableReason().isEmpty(),
        () -> "the local launcher cannot run here: " + launcher.unavailableReason().orElse(""));
    Path upstream = upstreamLayout(build, binary, a100);
    Path dataDir = dir.resolve("data");
    Path trace = dataDir.resolve("s3/cascade/accelsim-traces/gemm/traces");
    copyFiles(gemm, trace);
    Files.writeString(
        trace.resolveSibling("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_80\"}"); // as traces push writes it

    List<Long> byHand = byHand(binary, build, gemm, a100, List.of());
    // Options after the config files override theirs, as GPGPU-Sim reads its command line.
    List<Long> byHandSooner =
        byHand(binary, build, gemm, a100, List.of("-gpgpu_kernel_launch_latency", "1000"));

    cascade =
        Cascade.builder()
            .fromEnvironment(
                Map.of("CASCADE_ACCELSIM_DIR", upstream.toString(), "PATH", System.getenv("PATH")))
            .dataDir(dataDir)
            .launcher(launcher)
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    assertThat(cascade.configs().find("SM80_A100").orElseThrow().traceConfigApart()).isTrue();
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                cascade
                    .traces()
                    .find("gemm")
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));
    // The config as it is, and two variants of it: one setting the kernel launch latency it
    // already has (its own folder is written, with the base's trace.config from where Accel-Sim
    // keeps it), one a fifth of it. (Every kernel of this trace is one thread block, so the SM
    // count would change nothing.)
    Run run =
        cascade
            .runs()
            .create(
                "gemm",
                List.of(
                    new RunEntry("SM80_A100", 1),
                    new RunEntry("SM80_A100", 1)
                        .withSweep(
                            Map.of("-gpgpu_kernel_launch_latency", List.of("5000", "1000")))));
    await().atMost(WAIT).until(() -> !cascade.runs().get(run.id()).state().equals(RunState.ACTIVE));

    Map<String, List<Long>> cycles = new java.util.LinkedHashMap<>();
    for (Sim sim : cascade.runs().get(run.id()).sims()) {
      assertThat(sim.state())
          .as(() -> sim.gpuConfig() + ":\n" + String.join("\n", tail(sim)))
          .isEqualTo(SimState.SUCCEEDED);
      cycles.put(
          sim.gpuConfig(),
          cascade.runs().kernels(sim.id()).stream().map(KernelResult::cycles).toList());
    }
    assertThat(cycles.get("SM80_A100")).hasSize(8).isEqualTo(byHand);
    assertThat(cycles.get("SM80_A100 -gpgpu_kernel_launch_latency=5000")).isEqualTo(byHand);
    long whole = total(cycles.get("SM80_A100"));
    assertThat(cycles.get("SM80_A100 -gpgpu_kernel_launch_latency=1000")).isEqualTo(byHandSooner);
    long sooner = total(cycles.get("SM80_A100 -gpgpu_kernel_launch_latency=1000"));
    assertThat(sooner).as("kernels launched sooner take fewer cycles").isLessThan(whole);
    System.out.printf(
        "flashinfer-gemm on SM80_A100 (trace.config apart) through Cascade: %d cycles in all;"
            + " its variant with a launch latency of 5000 %d, of 1000 %d%n",
        whole, total(cycles.get("SM80_A100 -gpgpu_kernel_launch_latency=5000")), sooner);
  }

  private static long total(List<Long> cycles) {
    return cycles.stream().mapToLong(Long::longValue).sum();
  }

  private List<String> tail(Sim sim) {
    return cascade.runs().logTail(sim.id(), 20);
  }

  /**
   * An Accel-Sim folder as upstream lays it out, with the build's binary and library folders linked
   * in and the fixture's A100 split into its two places.
   */
  private Path upstreamLayout(Path build, Path binary, Path a100) throws IOException {
    Path upstream = dir.resolve("accel-sim-framework");
    Path bin = upstream.resolve(SimCommands.ACCELSIM_BINARY);
    Files.createDirectories(bin.getParent());
    Files.createSymbolicLink(bin, binary);
    for (Path release : SimCommands.accelSimLibraries(build)) {
      Path link = upstream.resolve(build.relativize(release));
      Files.createDirectories(link.getParent());
      Files.createSymbolicLink(link, release);
    }
    Path configs =
        Files.createDirectories(
            upstream.resolve(GpuConfigCatalog.TESTED_CFGS).resolve("SM80_A100"));
    Files.copy(a100.resolve("gpgpusim.config"), configs.resolve("gpgpusim.config"));
    Path apart =
        Files.createDirectories(
            upstream.resolve(GpuConfigCatalog.TRACE_CONFIGS).resolve("SM80_A100"));
    Files.copy(a100.resolve("trace.config"), apart.resolve("trace.config"));
    return upstream;
  }

  /** Each kernel's gpu_sim_cycle from accel-sim.out run by hand, as build-accelsim.sh checks it. */
  private List<Long> byHand(Path binary, Path build, Path gemm, Path a100, List<String> options)
      throws Exception {
    Path folder = Files.createDirectories(dir.resolve("by-hand-" + options.size()));
    copyFiles(gemm, folder.resolve("gemm"));
    List<String> command =
        new ArrayList<>(
            List.of(
                binary.toString(),
                "-trace",
                folder.resolve("gemm/kernelslist.g").toString(),
                "-config",
                a100.resolve("gpgpusim.config").toString(),
                "-config",
                a100.resolve("trace.config").toString()));
    command.addAll(options);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(folder.toFile())
            .redirectErrorStream(true)
            .redirectOutput(folder.resolve("accel-sim.log").toFile());
    SimCommands.accelSimLibraryPath(build, System.getenv("LD_LIBRARY_PATH"))
        .ifPresent(path -> builder.environment().put("LD_LIBRARY_PATH", path));
    Process process = builder.start();
    try {
      assertThat(process.waitFor(WAIT.toMinutes(), TimeUnit.MINUTES)).isTrue();
    } finally {
      process.destroyForcibly();
    }
    String log = Files.readString(folder.resolve("accel-sim.log"), StandardCharsets.UTF_8);
    assertThat(process.exitValue())
        .as(log.length() > 2000 ? log.substring(log.length() - 2000) : log)
        .isZero();
    List<Long> cycles = new ArrayList<>();
    Matcher matcher = SIM_CYCLE.matcher(log);
    while (matcher.find()) {
      cycles.add(Long.parseLong(matcher.group(1)));
    }
    return cycles;
  }

  private static void copyFiles(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          Files.copy(in, to.resolve(file.getFileName().toString()));
        }
      }
    }
  }
}
