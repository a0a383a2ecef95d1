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
 * @param limits what each SM holds and the launch latency
 * @param memory the memory system: channels, DRAM bus and clock (so bandwidth), L2, latencies
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
    GpuMemory memory,
    String clockDomains,
    List<Map.Entry<String, String>> options,
    Path directory) {

  /**
   * The file a Cascade variant's config folder holds beside {@code gpgpusim.config}: the parameters
   * the variant set over its base config, one {@code -name value} a line (already applied to the
   * config files; the simulator never reads it).
   */
  public static final String VARIANT_FILE = "variant.config";

  /** The options the timing model reads (names without the dash): the others do not move it. */
  public static final java.util.Set<String> MODELLED_OPTIONS =
      java.util.Set.of(
          "gpgpu_n_clusters",
          "gpgpu_n_cores_per_cluster",
          "gpgpu_clock_domains",
          "gpgpu_compute_capability_major",
          "gpgpu_compute_capability_minor",
          "gpgpu_shader_core_pipeline",
          "gpgpu_shader_cta",
          "gpgpu_shader_registers",
          "gpgpu_shmem_size",
          "gpgpu_num_sched_per_core",
          "gpgpu_kernel_launch_latency",
          "gpgpu_n_mem",
          "gpgpu_n_sub_partition_per_mchannel",
          "gpgpu_n_mem_per_ctrlr",
          "gpgpu_dram_buswidth",
          "gpgpu_dram_burst_length",
          "dram_data_command_freq_ratio",
          "gpgpu_cache:dl2",
          "gpgpu_l2_rop_latency",
          "dram_latency");

  /**
   * Of the parameters {@code params} names ({@code -name}, with or without the dash), those the
   * timing model does not read, with their dash, in order.
   */
  public static List<String> notModelled(java.util.Collection<String> params) {
    return params.stream()
        .map(name -> name.startsWith("-") ? name.substring(1) : name)
        .filter(name -> !MODELLED_OPTIONS.contains(name))
        .map(name -> "-" + name)
        .toList();
  }

  /**
   * The parameters a variant's folder says it set ({@link #VARIANT_FILE}) that the timing model
   * does not read; empty for a folder that is no variant, or a built-in config.
   */
  public static List<String> notModelledIn(Path directory) {
    if (directory == null || !Files.isRegularFile(directory.resolve(VARIANT_FILE))) {
      return List.of();
    }
    try {
      return notModelled(GpgpusimConfig.read(directory.resolve(VARIANT_FILE)).names());
    } catch (IOException e) {
      return List.of();
    }
  }

  public EmulatedGpu {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(clockDomains, "clockDomains");
    options = List.copyOf(options);
    requirePositive(name, "clock_mhz", clockMhz);
    requirePositive(name, "sms", sms);
    requirePositive(name, "max threads per SM", limits.maxThreadsPerSm());
    requirePositive(name, "max CTAs per SM", limits.maxCtasPerSm());
    requirePositive(name, "registers per SM", limits.registersPerSm());
    requirePositive(name, "shared memory per SM", limits.sharedMemoryPerSm());
    requirePositive(name, "schedulers per SM", limits.schedulersPerSm());
    if (limits.kernelLaunchLatency() < 0) {
      throw new IllegalArgumentException(
          "GPU config '" + name + "': kernel launch latency cannot be negative");
    }
  }

  /**
   * What bounds a kernel on this GPU besides its SM count, clock and memory.
   *
   * @param maxThreadsPerSm {@code -gpgpu_shader_core_pipeline} threads
   * @param maxCtasPerSm {@code -gpgpu_shader_cta}
   * @param registersPerSm {@code -gpgpu_shader_registers}
   * @param sharedMemoryPerSm {@code -gpgpu_shmem_size} in bytes
   * @param schedulersPerSm {@code -gpgpu_num_sched_per_core}
   * @param kernelLaunchLatency {@code -gpgpu_kernel_launch_latency} in cycles
   */
  public record Limits(
      int maxThreadsPerSm,
      int maxCtasPerSm,
      int registersPerSm,
      int sharedMemoryPerSm,
      int schedulersPerSm,
      int kernelLaunchLatency) {}

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
   * A config of any catalog: read from its folder when it has one, else built from its facts (the
   * architecture's defaults for the limits and memory it does not carry).
   */
  public static EmulatedGpu fromCatalog(GpuFacts config) throws IOException {
    return config.directory() != null ? fromDirectory(config.directory()) : fromFacts(config);
  }

  private static EmulatedGpu fromFacts(GpuFacts config) {
    ArchDefaults d = ArchDefaults.of(config.arch());
    Limits limits = config.limits() != null ? config.limits() : d.limits();
    GpuMemory memory = config.memory() != null ? config.memory() : d.memory();
    String domains =
        number(config.clockMhz())
            + ":"
            + number(config.clockMhz() * d.interconnectRatio())
            + ":"
            + number(config.clockMhz() * d.interconnectRatio())
            + ":"
            + number(memory.dramClockMhz());
    return new EmulatedGpu(
        config.name(),
        config.arch(),
        config.clockMhz(),
        config.sms(),
        limits,
        memory,
        domains,
        BuiltInOptions.of(config, limits, memory, domains),
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
    int threads = d.limits().maxThreadsPerSm();
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
            config.intValue("gpgpu_shader_cta").orElse(d.limits().maxCtasPerSm()),
            config.intValue("gpgpu_shader_registers").orElse(d.limits().registersPerSm()),
            config.intValue("gpgpu_shmem_size").orElse(d.limits().sharedMemoryPerSm()),
            config.intValue("gpgpu_num_sched_per_core").orElse(d.limits().schedulersPerSm()),
            config
                .intValue("gpgpu_kernel_launch_latency")
                .orElse(d.limits().kernelLaunchLatency())),
        memoryOf(config, d.memory()),
        config.value("gpgpu_clock_domains").orElseThrow(),
        options,
        directory.toAbsolutePath().normalize());
  }

  /** The memory facts a config sets, the architecture's for those it does not. */
  private static GpuMemory memoryOf(GpgpusimConfig config, GpuMemory d) {
    int channels = config.intValue("gpgpu_n_mem").orElse(d.channels());
    int subPartitions =
        config.intValue("gpgpu_n_sub_partition_per_mchannel").orElse(d.subPartitionsPerChannel());
    long l2 =
        config.l2CacheBytes().orElse(d.l2Bytes() / d.l2Banks() * (long) channels * subPartitions);
    return new GpuMemory(
        channels,
        subPartitions,
        config.intValue("gpgpu_n_mem_per_ctrlr").orElse(d.chipsPerChannel()),
        config.intValue("gpgpu_dram_buswidth").orElse(d.busWidthBytes()),
        config.intValue("gpgpu_dram_burst_length").orElse(d.burstLength()),
        config.intValue("dram_data_command_freq_ratio").orElse(d.dataCommandRatio()),
        config.dramClockMhz().orElse(d.dramClockMhz()),
        l2,
        config.intValue("gpgpu_l2_rop_latency").orElse(d.l2Latency()),
        config.intValue("dram_latency").orElse(d.dramLatency()));
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

  static String number(double value) {
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
}
