package dev.cascade.agent.emulator;

import dev.cascade.accelsim.config.ComputeCapability;
import dev.cascade.accelsim.config.GpgpusimConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPU the emulator models: what the timing model and the echoed options need. From a
 * tested-cfgs directory every number comes from its {@code gpgpusim.config} (with per-architecture
 * defaults for options it lacks); from the built-in catalog the name, architecture, clock and SM
 * count are the catalog's and the rest are the architecture's defaults (the values Accel-Sim's own
 * tested-cfgs of that architecture set).
 *
 * @param name the config's name, {@code SM90_H100}
 * @param arch {@code sm_90}
 * @param clockMhz the core clock in MHz
 * @param sms streaming multiprocessors
 * @param limits what each SM holds, the memory channels and the launch latency
 * @param clockDomains {@code -gpgpu_clock_domains} as written, {@code 1980:3960:3960:3106}
 * @param options the options to echo at start, in order (name without the dash, value)
 * @param directory the config's folder; null for a built-in config
 */
public record EmulatedGpu(
    String name,
    String arch,
    double clockMhz,
    int sms,
    Limits limits,
    String clockDomains,
    List<Map.Entry<String, String>> options,
    Path directory) {

  public EmulatedGpu {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(clockDomains, "clockDomains");
    options = List.copyOf(options);
    requirePositive(name, "clock_mhz", clockMhz);
    requirePositive(name, "sms", sms);
    requirePositive(name, "max threads per SM", limits.maxThreadsPerSm());
    requirePositive(name, "max CTAs per SM", limits.maxCtasPerSm());
    requirePositive(name, "registers per SM", limits.registersPerSm());
    requirePositive(name, "shared memory per SM", limits.sharedMemoryPerSm());
    requirePositive(name, "schedulers per SM", limits.schedulersPerSm());
    requirePositive(name, "memory channels", limits.memoryChannels());
    if (limits.kernelLaunchLatency() < 0) {
      throw new IllegalArgumentException(
          "GPU config '" + name + "': kernel launch latency cannot be negative");
    }
  }

  /**
   * What bounds a kernel on this GPU besides its SM count and clock.
   *
   * @param maxThreadsPerSm {@code -gpgpu_shader_core_pipeline} threads
   * @param maxCtasPerSm {@code -gpgpu_shader_cta}
   * @param registersPerSm {@code -gpgpu_shader_registers}
   * @param sharedMemoryPerSm {@code -gpgpu_shmem_size} in bytes
   * @param schedulersPerSm {@code -gpgpu_num_sched_per_core}
   * @param memoryChannels {@code -gpgpu_n_mem}
   * @param kernelLaunchLatency {@code -gpgpu_kernel_launch_latency} in cycles
   */
  public record Limits(
      int maxThreadsPerSm,
      int maxCtasPerSm,
      int registersPerSm,
      int sharedMemoryPerSm,
      int schedulersPerSm,
      int memoryChannels,
      int kernelLaunchLatency) {

    /** These limits with {@code memoryChannels} channels. */
    Limits withMemoryChannels(int memoryChannels) {
      return new Limits(
          maxThreadsPerSm,
          maxCtasPerSm,
          registersPerSm,
          sharedMemoryPerSm,
          schedulersPerSm,
          memoryChannels,
          kernelLaunchLatency);
    }
  }

  /**
   * The config named by {@code nameOrDirectory}: a folder holding {@code gpgpusim.config}, or the
   * name of a built-in config ({@code SM90_H100}).
   *
   * @throws IllegalArgumentException naming the value and what exists, when it is neither
   * @throws IOException when the config file cannot be read
   */
  public static EmulatedGpu resolve(String nameOrDirectory) throws IOException {
    Objects.requireNonNull(nameOrDirectory, "nameOrDirectory");
    Path path = Path.of(nameOrDirectory);
    if (Files.isDirectory(path)) {
      return fromDirectory(path);
    }
    if (nameOrDirectory.contains("/")) {
      throw new IllegalArgumentException(
          "GPU config '" + nameOrDirectory + "' is not a folder holding gpgpusim.config");
    }
    return builtIn(nameOrDirectory);
  }

  /** A config of the built-in catalog, by name. */
  public static EmulatedGpu builtIn(String name) {
    List<GpuFacts> catalog = BuiltInGpus.all();
    GpuFacts config =
        catalog.stream()
            .filter(c -> c.name().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "unknown GPU config '"
                            + name
                            + "': the built-in catalog has "
                            + String.join(", ", catalog.stream().map(GpuFacts::name).toList())
                            + "; or give a folder holding gpgpusim.config"));
    return fromFacts(config);
  }

  /**
   * A config of any catalog: read from its folder when it has one, else built from its name, arch,
   * clock and SMs with the architecture's defaults.
   */
  public static EmulatedGpu fromCatalog(GpuFacts config) throws IOException {
    return config.directory() != null ? fromDirectory(config.directory()) : fromFacts(config);
  }

  private static EmulatedGpu fromFacts(GpuFacts config) {
    ArchDefaults d = ArchDefaults.of(config.arch());
    Limits limits =
        d.limits.withMemoryChannels(
            KNOWN_MEMORY_CHANNELS.getOrDefault(config.name(), d.limits.memoryChannels()));
    String domains =
        number(config.clockMhz())
            + ":"
            + number(config.clockMhz() * d.interconnectRatio)
            + ":"
            + number(config.clockMhz() * d.interconnectRatio)
            + ":"
            + d.dramClock;
    ComputeCapability capability = capabilityOf(config.arch());
    List<Map.Entry<String, String>> options =
        List.of(
            Map.entry("gpgpu_ptx_force_max_capability", digits(config.arch())),
            Map.entry("gpgpu_shader_registers", Integer.toString(limits.registersPerSm())),
            Map.entry("gpgpu_shader_cta", Integer.toString(limits.maxCtasPerSm())),
            Map.entry("gpgpu_n_clusters", Integer.toString(config.sms())),
            Map.entry("gpgpu_n_cores_per_cluster", "1"),
            Map.entry("gpgpu_shmem_size", Integer.toString(limits.sharedMemoryPerSm())),
            Map.entry("gpgpu_shader_core_pipeline", limits.maxThreadsPerSm() + ":32"),
            Map.entry("gpgpu_num_sched_per_core", Integer.toString(limits.schedulersPerSm())),
            Map.entry("gpgpu_n_mem", Integer.toString(limits.memoryChannels())),
            Map.entry("gpgpu_n_sub_partition_per_mchannel", "2"),
            Map.entry(
                "gpgpu_compute_capability_major",
                capability == null ? "0" : Integer.toString(capability.major())),
            Map.entry(
                "gpgpu_compute_capability_minor",
                capability == null ? "0" : Integer.toString(capability.minor())),
            Map.entry("gpgpu_clock_domains", domains),
            Map.entry(
                "gpgpu_kernel_launch_latency", Integer.toString(limits.kernelLaunchLatency())));
    return new EmulatedGpu(
        config.name(),
        config.arch(),
        config.clockMhz(),
        config.sms(),
        limits,
        domains,
        options,
        null);
  }

  /**
   * Reads a tested-cfgs directory: {@code gpgpusim.config}, and {@code trace.config} beside it for
   * the echoed options. The architecture comes from the name ({@code SM90_H100} gives {@code
   * sm_90}) or, without one, from the file's compute capability.
   *
   * @throws IllegalArgumentException when the config lacks a clock, SMs or an architecture
   * @throws IOException when it cannot be read
   */
  public static EmulatedGpu fromDirectory(Path directory) throws IOException {
    Path file = directory.resolve("gpgpusim.config");
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(
          file.toString(), null, "a GPU config folder must hold gpgpusim.config");
    }
    GpgpusimConfig config = GpgpusimConfig.read(file);
    String name = directory.toAbsolutePath().normalize().getFileName().toString();
    Optional<ComputeCapability> capability = config.computeCapability();
    String arch =
        GpuFacts.archFromName(name)
            .or(() -> capability.map(ComputeCapability::arch))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        file
                            + ": no architecture: the folder name '"
                            + name
                            + "' has no SM<nn>_ prefix and no"
                            + " -gpgpu_compute_capability_major/minor is set"));
    double clock =
        config
            .coreClockMhz()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(file + ": no -gpgpu_clock_domains (core clock)"));
    int sms =
        config
            .smCount()
            .orElseThrow(
                () -> new IllegalArgumentException(file + ": no -gpgpu_n_clusters (SM count)"));
    ArchDefaults d = ArchDefaults.of(arch);
    int threads = d.limits.maxThreadsPerSm();
    Optional<String> pipeline = config.value("gpgpu_shader_core_pipeline");
    if (pipeline.isPresent()) {
      try {
        threads = Integer.parseInt(pipeline.get().split(":", 2)[0].strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            file + ": -gpgpu_shader_core_pipeline '" + pipeline.get() + "' is not <threads>:<warp>",
            e);
      }
    }
    List<Map.Entry<String, String>> options = new java.util.ArrayList<>();
    for (String option : config.names()) {
      options.add(Map.entry(option, config.value(option).orElse("")));
    }
    Path traceConfig = directory.resolve("trace.config");
    if (Files.isRegularFile(traceConfig)) {
      GpgpusimConfig trace = GpgpusimConfig.read(traceConfig);
      for (String option : trace.names()) {
        options.add(Map.entry(option, trace.value(option).orElse("")));
      }
    }
    return new EmulatedGpu(
        name,
        arch,
        clock,
        sms,
        new Limits(
            threads,
            config.intValue("gpgpu_shader_cta").orElse(d.limits.maxCtasPerSm()),
            config.intValue("gpgpu_shader_registers").orElse(d.limits.registersPerSm()),
            config.intValue("gpgpu_shmem_size").orElse(d.limits.sharedMemoryPerSm()),
            config.intValue("gpgpu_num_sched_per_core").orElse(d.limits.schedulersPerSm()),
            config.intValue("gpgpu_n_mem").orElse(d.limits.memoryChannels()),
            config.intValue("gpgpu_kernel_launch_latency").orElse(d.limits.kernelLaunchLatency())),
        config.value("gpgpu_clock_domains").orElseThrow(),
        options,
        directory.toAbsolutePath().normalize());
  }

  /** The largest number of warps one SM holds at once. */
  public int maxWarpsPerSm() {
    return Math.max(1, limits.maxThreadsPerSm() / 32);
  }

  /** The clock domains in Hz, as GPGPU-Sim prints them in {@code clock freqs}. */
  public double[] clockDomainsHz() {
    String[] parts = clockDomains.split(":");
    double[] hz = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        hz[i] = Double.parseDouble(parts[i].strip()) * 1e6;
      } catch (NumberFormatException e) {
        hz[i] = clockMhz * 1e6;
      }
    }
    return hz;
  }

  private static ComputeCapability capabilityOf(String arch) {
    String digits = digits(arch);
    if (digits.length() != 2) {
      return null;
    }
    return new ComputeCapability(digits.charAt(0) - '0', digits.charAt(1) - '0');
  }

  private static String digits(String arch) {
    return arch.startsWith("sm_") ? arch.substring(3) : arch;
  }

  private static String number(double value) {
    return value == Math.rint(value)
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static void requirePositive(String name, String what, double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException(
          "GPU config '" + name + "': " + what + " must be positive; got " + value);
    }
  }

  /** Memory channels of built-in configs whose count differs from their architecture's default. */
  private static final Map<String, Integer> KNOWN_MEMORY_CHANNELS =
      Map.of("SM90_H200", 48, "SM75_RTX2060_S", 16, "SM7_TITANV", 24, "SM86_RTX3070", 16);

  /**
   * What Accel-Sim's tested-cfgs set per architecture, for options a config does not give (and for
   * built-in configs, which give only name, arch, clock and SMs).
   */
  private record ArchDefaults(Limits limits, double interconnectRatio, String dramClock) {

    static ArchDefaults of(String arch) {
      return switch (arch) {
        case "sm_90" ->
            new ArchDefaults(new Limits(2048, 32, 65536, 233472, 4, 40, 3000), 2.0, "3106");
        case "sm_80" ->
            new ArchDefaults(new Limits(2048, 32, 65536, 167936, 4, 40, 5000), 1.0, "1512");
        case "sm_86" ->
            new ArchDefaults(new Limits(1536, 32, 65536, 102400, 4, 16, 5000), 1.0, "3500.5");
        case "sm_75" ->
            new ArchDefaults(new Limits(1024, 16, 65536, 65536, 4, 12, 5000), 1.0, "3500.5");
        case "sm_70" ->
            new ArchDefaults(new Limits(2048, 32, 65536, 98304, 4, 32, 5000), 1.0, "850");
        case "sm_60", "sm_61", "sm_62" ->
            new ArchDefaults(new Limits(2048, 32, 65536, 98304, 4, 12, 5000), 1.0, "2500");
        default -> new ArchDefaults(new Limits(2048, 32, 65536, 98304, 4, 16, 5000), 1.0, "2500");
      };
    }
  }
}
