package dev.cascade.core.internal.doctor;

import dev.cascade.core.DoctorCheck;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.SimCommands;
import dev.cascade.core.internal.AppEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks of a built Accel-Sim: its folder, {@code accel-sim.out}, the shared libraries the
 * loader must find for it with the environment sims get, and its GPU config folder. {@link
 * SmokeRun} then runs it.
 */
public final class AccelSimChecks {

  private static final Path LDD = Path.of("/usr/bin/ldd");
  private static final Pattern NOT_FOUND = Pattern.compile("^\\s*(\\S+)\\s*=>\\s*not found");
  private static final Pattern RESOLVED = Pattern.compile("^\\s*(\\S+)\\s*=>\\s*(\\S+)");

  private final Path accelSimDir;
  private final Optional<Path> configsOverride;
  private final Map<String, String> simEnvironment;
  private boolean folderOk;
  private boolean binaryOk;
  private List<GpuConfig> configs = List.of();

  /**
   * @param accelSimDir the Accel-Sim folder
   * @param configsOverride {@code CASCADE_ACCELSIM_CONFIGS}, which wins over the folder's configs
   * @param simEnvironment the environment a sim's simulator starts in (PATH, LD_LIBRARY_PATH, ...)
   */
  public AccelSimChecks(
      Path accelSimDir, Optional<Path> configsOverride, Map<String, String> simEnvironment) {
    this.accelSimDir = accelSimDir;
    this.configsOverride = configsOverride;
    this.simEnvironment = Map.copyOf(simEnvironment);
  }

  /** What the Accel-Sim checks say when no Accel-Sim is configured: how to configure one. */
  public static List<DoctorCheck> notConfigured() {
    return List.of(
        DoctorCheck.skip(
            "accelsim_dir",
            "Accel-Sim folder",
            "no Accel-Sim configured: sims run Cascade's emulator",
            "to run the real simulator, build Accel-Sim (github.com/accel-sim/accel-sim-framework:"
                + " source gpu-simulator/setup_environment.sh && make -j -C gpu-simulator) and"
                + " set CASCADE_ACCELSIM_DIR to its folder, or pass --accelsim-dir DIR to check"
                + " one"));
  }

  /** The folder, binary, library and config checks, in that order. */
  public List<DoctorCheck> run() {
    List<DoctorCheck> checks = new ArrayList<>();
    checks.add(folder());
    checks.add(
        folderOk ? binaryCheck() : waiting("binary", "accel-sim.out", "the Accel-Sim folder"));
    checks.add(binaryOk ? libraries() : waiting("libraries", "shared libraries", "accel-sim.out"));
    checks.add(configsCheck());
    return checks;
  }

  Path accelSimDir() {
    return accelSimDir;
  }

  Path binary() {
    return accelSimDir.resolve(SimCommands.ACCELSIM_BINARY);
  }

  boolean binaryOk() {
    return binaryOk;
  }

  /** The usable configs the config check found; empty when it failed. */
  List<GpuConfig> usableConfigs() {
    return configs;
  }

  Map<String, String> simEnvironment() {
    return simEnvironment;
  }

  /** The sims' {@code LD_LIBRARY_PATH} in words, for details and fixes. */
  String libraryPathInWords() {
    String path = simEnvironment.get("LD_LIBRARY_PATH");
    return path == null
        ? "sims get no LD_LIBRARY_PATH (no "
            + SimCommands.ACCELSIM_LIBRARIES
            + "/**/release folder)"
        : "sims get LD_LIBRARY_PATH=" + path;
  }

  /**
   * A config's {@code trace.config}, as the catalog found it: beside its {@code gpgpusim.config},
   * else (configs of the Accel-Sim folder) where Accel-Sim keeps it, {@value
   * GpuConfigCatalog#TRACE_CONFIGS}/NAME/trace.config.
   */
  Optional<Path> traceConfig(GpuConfig config) {
    return Optional.ofNullable(config.traceConfig());
  }

  private DoctorCheck folder() {
    String title = "Accel-Sim folder";
    if (!Files.isDirectory(accelSimDir)) {
      return DoctorCheck.fail(
          "accelsim_dir",
          title,
          AppEnvironment.ACCELSIM_DIR
              + " or --accelsim-dir names "
              + accelSimDir
              + ", which is not a folder",
          "set CASCADE_ACCELSIM_DIR (or --accelsim-dir) to the folder Accel-Sim was cloned and"
              + " built in, the one holding gpu-simulator/");
    }
    if (!Files.isDirectory(accelSimDir.resolve("gpu-simulator"))) {
      return DoctorCheck.fail(
          "accelsim_dir",
          title,
          accelSimDir + " has no gpu-simulator/ folder, so it is not an Accel-Sim checkout",
          "set CASCADE_ACCELSIM_DIR (or --accelsim-dir) to the accel-sim-framework folder itself"
              + " (git clone https://github.com/accel-sim/accel-sim-framework)");
    }
    folderOk = true;
    return DoctorCheck.pass("accelsim_dir", title, accelSimDir.toString());
  }

  private DoctorCheck binaryCheck() {
    return binary(binary());
  }

  private DoctorCheck binary(Path binary) {
    String title = "accel-sim.out";
    String build =
        "build it: cd "
            + accelSimDir
            + " && source gpu-simulator/setup_environment.sh && make -j -C gpu-simulator";
    if (!Files.exists(binary)) {
      Path debug = accelSimDir.resolve("gpu-simulator/bin/debug/accel-sim.out");
      String note =
          Files.exists(debug)
              ? " (there is a debug build at "
                  + debug
                  + "; Cascade runs the release build: source setup_environment.sh without"
                  + " 'debug' and make again)"
              : "";
      return DoctorCheck.fail(
          "binary", title, "no accel-sim.out at " + binary + note, build + " (a release build)");
    }
    if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
      return DoctorCheck.fail(
          "binary",
          title,
          binary + " is not an executable file",
          "make it executable (chmod +x " + binary + ") or " + build);
    }
    binaryOk = true;
    return DoctorCheck.pass("binary", title, binary.toString());
  }

  private DoctorCheck libraries() {
    String title = "shared libraries";
    Path binary = binary();
    if (!Files.isExecutable(LDD)) {
      return DoctorCheck.skip(
          "libraries",
          title,
          "no " + LDD + " to list them; the smoke run starts the simulator instead",
          "install ldd (Debian: apt-get install libc-bin) to see each library");
    }
    Lines ldd;
    try {
      ldd = Lines.run(List.of(LDD.toString(), binary.toString()), simEnvironment, 30);
    } catch (IOException e) {
      return DoctorCheck.skip(
          "libraries", title, "ldd could not run: " + Words.of(e), "the smoke run checks them");
    }
    String joined = String.join("\n", ldd.lines());
    if (joined.contains("not a dynamic executable")) {
      return DoctorCheck.pass(
          "libraries",
          title,
          binary.getFileName()
              + " is not dynamically linked (a script or a static build): nothing"
              + " for the loader to find");
    }
    Set<String> missing = new LinkedHashSet<>();
    String cudart = null;
    Path cudartFile = null;
    for (String line : ldd.lines()) {
      Matcher notFound = NOT_FOUND.matcher(line);
      if (notFound.find()) {
        missing.add(notFound.group(1));
        continue;
      }
      Matcher resolved = RESOLVED.matcher(line);
      if (resolved.find() && resolved.group(1).startsWith("libcudart")) {
        cudart = resolved.group(1) + " from " + resolved.group(2);
        cudartFile = Path.of(resolved.group(2));
      }
    }
    if (!missing.isEmpty()) {
      String names = String.join(", ", missing);
      return DoctorCheck.fail(
          "libraries",
          title,
          names + " not found; " + libraryPathInWords(),
          LoaderWords.missingLibraryFix(missing.iterator().next(), accelSimDir));
    }
    if (cudartFile != null && !cudartFile.toAbsolutePath().normalize().startsWith(accelSimDir)) {
      // accel-sim.out is linked against GPGPU-Sim's libcudart.so; CUDA's own lacks its symbols.
      return DoctorCheck.fail(
          "libraries",
          title,
          cudart.replace(" from ", " is taken from ")
              + ", not from Accel-Sim's build under "
              + accelSimDir.resolve(SimCommands.ACCELSIM_LIBRARIES)
              + "; "
              + libraryPathInWords(),
          LoaderWords.missingLibraryFix(cudart.substring(0, cudart.indexOf(' ')), accelSimDir));
    }
    if (ldd.exitCode() != 0) {
      return DoctorCheck.skip(
          "libraries",
          title,
          "ldd could not read " + binary + ": " + joined.strip(),
          "the smoke run below starts it and says what the loader says");
    }
    return DoctorCheck.pass(
        "libraries",
        title,
        "every library found"
            + (cudart == null ? "" : " (" + cudart + ")")
            + "; "
            + libraryPathInWords());
  }

  private DoctorCheck configsCheck() {
    String title = "GPU configs";
    Path folder = configsOverride.orElse(accelSimDir.resolve(GpuConfigCatalog.TESTED_CFGS));
    String source =
        configsOverride.isPresent() ? AppEnvironment.ACCELSIM_CONFIGS : "the Accel-Sim folder";
    if (!Files.isDirectory(folder)) {
      return DoctorCheck.fail(
          "configs",
          title,
          "no GPU config folder at " + folder + " (from " + source + ")",
          configsOverride.isPresent()
              ? "set CASCADE_ACCELSIM_CONFIGS to a tested-cfgs folder, or unset it to use the"
                  + " Accel-Sim folder's"
              : "Accel-Sim's setup_environment.sh fetches GPGPU-Sim into gpu-simulator/gpgpu-sim,"
                  + " whose configs/tested-cfgs Cascade reads: run it (source"
                  + " gpu-simulator/setup_environment.sh), or set CASCADE_ACCELSIM_CONFIGS to a"
                  + " tested-cfgs folder");
    }
    if (!Files.isReadable(folder)) {
      return DoctorCheck.fail(
          "configs",
          title,
          folder + " cannot be read (permission denied)",
          "make it readable (chmod -R u+rX " + folder + ")");
    }
    List<GpuConfig> all;
    try {
      all =
          (configsOverride.isPresent()
                  ? GpuConfigCatalog.fromFolder(folder)
                  : GpuConfigCatalog.forAccelSim(accelSimDir))
              .list();
    } catch (RuntimeException e) {
      return DoctorCheck.fail(
          "configs",
          title,
          folder + " cannot be listed: " + Words.of(e),
          "make it readable (chmod -R u+rX " + folder + ")");
    }
    List<GpuConfig> usable = all.stream().filter(GpuConfig::usable).toList();
    if (usable.isEmpty()) {
      String reasons =
          all.isEmpty()
              ? "it holds no config folder"
              : all.stream()
                  .limit(3)
                  .map(c -> c.name() + ": " + c.reason())
                  .reduce((a, b) -> a + "; " + b)
                  .orElse("");
      return DoctorCheck.fail(
          "configs",
          title,
          "no usable GPU config in " + folder + ": " + reasons,
          "each config is a folder holding a gpgpusim.config with -gpgpu_clock_domains and"
              + " -gpgpu_n_clusters; `cascade configs` lists each with its reason");
    }
    configs = usable;
    List<String> withoutTrace =
        usable.stream().filter(c -> !c.hasTraceConfig()).map(GpuConfig::name).toList();
    String counts =
        all.size()
            + (all.size() == 1 ? " config in " : " configs in ")
            + folder
            + ", "
            + usable.size()
            + " usable, "
            + (usable.size() - withoutTrace.size())
            + " with a trace.config";
    if (withoutTrace.size() == usable.size()) {
      Path apart = accelSimDir.resolve(GpuConfigCatalog.TRACE_CONFIGS);
      return DoctorCheck.fail(
          "configs",
          title,
          counts
              + ": sims pass -config $CASCADE_GPU_CONFIG_DIR/trace.config, which no config has"
              + (configsOverride.isPresent()
                  ? " ("
                      + AppEnvironment.ACCELSIM_CONFIGS
                      + " is set, so none is taken from "
                      + apart
                      + ")"
                  : ", neither beside its gpgpusim.config nor in " + apart + "/NAME/"),
          configsOverride.isPresent()
              ? "put each config's trace.config (Accel-Sim's "
                  + apart
                  + "/NAME/trace.config) beside its gpgpusim.config, or unset"
                  + " CASCADE_ACCELSIM_CONFIGS to use the Accel-Sim folder's configs, whose"
                  + " trace.config Cascade finds where Accel-Sim keeps it"
              : "Accel-Sim keeps each config's trace.config in "
                  + apart
                  + "/NAME/; a checkout without that folder is incomplete: check out"
                  + " accel-sim-framework again, or put each trace.config beside its"
                  + " gpgpusim.config");
    }
    String note =
        withoutTrace.isEmpty()
            ? ""
            : "; without one (sims on these need it): "
                + String.join(", ", withoutTrace.stream().limit(8).toList())
                + (withoutTrace.size() > 8 ? ", ..." : "");
    return DoctorCheck.pass("configs", title, counts + note);
  }

  private static DoctorCheck waiting(String id, String title, String on) {
    return DoctorCheck.skip(id, title, "not checked: " + on + " failed", "fix " + on + " first");
  }

  /** A short command's output lines and exit code. */
  record Lines(List<String> lines, int exitCode) {

    static Lines run(List<String> command, Map<String, String> environment, int seconds)
        throws IOException {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().clear();
      builder.environment().putAll(environment);
      Process process = builder.start();
      try {
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IOException(command.getFirst() + " did not finish in " + seconds + " s");
        }
        return new Lines(
            new String(out, StandardCharsets.UTF_8).lines().toList(), process.exitValue());
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while " + command.getFirst() + " ran", e);
      }
    }
  }
}
