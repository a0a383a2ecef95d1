package dev.cascade.agent.emulator;

/**
 * The emulator's analytical timing model: a few lines of arithmetic per kernel from counts taken
 * once when the trace is read, not a simulation. For one kernel on one GPU:
 *
 * <ol>
 *   <li>CTAs per SM: the tightest of {@code -gpgpu_shader_cta}, threads ({@code
 *       -gpgpu_shader_core_pipeline}), registers ({@code -nregs} rounded up to 8, times threads)
 *       and shared memory ({@code -shmem}), as GPGPU-Sim's occupancy calculation does;
 *   <li>waves: {@code ceil(blocks / (sms * ctas per SM))}, the last one possibly partial;
 *   <li>a wave takes the larger of its latency path (the longest warp's instructions at {@value
 *       #CYCLES_PER_INSTRUCTION} cycles each, plus one memory round trip, {@code
 *       -gpgpu_l2_rop_latency + -dram_latency +} {@value #INTERCONNECT_ROUND_TRIP} cycles, per
 *       distinct line its global loads read) and its issue bound (the SM's warps' instructions over
 *       {@code -gpgpu_num_sched_per_core} schedulers);
 *   <li>the memory bound: the bytes the kernel moves to and from DRAM (its loads' bytes, and its
 *       stores' beyond what the L2 holds) over the config's DRAM bandwidth at {@value
 *       #DRAM_EFFICIENCY} of peak, in core cycles;
 *   <li>cycles: {@code -gpgpu_kernel_launch_latency} + {@value #KERNEL_OVERHEAD} + the larger of
 *       the waves and the memory bound; with jitter on, times {@code 1 + r + k}, {@code r} per
 *       replica and {@code k} per kernel, each within +-1%.
 * </ol>
 *
 * <p>{@value #CYCLES_PER_INSTRUCTION}, {@value #KERNEL_OVERHEAD} and {@value
 * #INTERCONNECT_ROUND_TRIP} are fitted to a real Accel-Sim run ({@code flashinfer-gemm} on {@code
 * SM80_A100}, docs/emulator.md); {@value #DRAM_EFFICIENCY} is an assumption. Without jitter the
 * same trace and config give the same cycles for every replica, as Accel-Sim does. The cache and
 * DRAM counts printed beside the cycles follow the kernel's memory instructions with per-kernel hit
 * rates drawn from its name: they are the same for every config and replica.
 */
final class TimingModel {

  static final double CYCLES_PER_INSTRUCTION = 3.38;
  static final double KERNEL_OVERHEAD = 240;
  static final double INTERCONNECT_ROUND_TRIP = 34;
  static final double DRAM_EFFICIENCY = 0.8;

  private TimingModel() {}

  /**
   * What one kernel does on {@code gpu}.
   *
   * @param seed the emulator's base seed
   * @param replica the sim's replica number
   * @param jitter whether replicas and kernels get their +-1% each
   */
  static KernelRun run(
      EmulatedKernel kernel, EmulatedGpu gpu, long seed, int replica, boolean jitter) {
    long blocks = kernel.blocks();
    int warps = kernel.warpsPerBlock();
    double perWarp = Math.max(1, kernel.warpInstructions()) / ((double) blocks * warps);
    double latency =
        CYCLES_PER_INSTRUCTION * Math.max(perWarp, kernel.longestWarp())
            + kernel.loadRoundTrips() * roundTrip(gpu);

    Occupancy occupancy = occupancy(kernel, gpu);
    long slots = (long) gpu.sms() * occupancy.ctasPerSm;
    long fullWaves = blocks / slots;
    long rest = blocks % slots;

    double fullWave = wave(occupancy.ctasPerSm * (double) warps, perWarp, latency, gpu);
    double busy = fullWaves * fullWave;
    double warpTime = fullWaves * fullWave * occupancy.ctasPerSm * warps;
    if (rest > 0) {
      int perSm = (int) Math.min(occupancy.ctasPerSm, (rest + gpu.sms() - 1) / gpu.sms());
      double lastWave = wave(perSm * (double) warps, perWarp, latency, gpu);
      busy += lastWave;
      warpTime += lastWave * perSm * warps;
    }
    long waves = fullWaves + (rest > 0 ? 1 : 0);
    double body = Math.max(busy, memoryBound(kernel, gpu));

    double scale = 1;
    if (jitter) {
      long configHash = SplitMix64.hash(gpu.name());
      scale +=
          SplitMix64.of(seed, configHash, replica).between(-0.01, 0.01)
              + SplitMix64.of(seed, configHash, replica, kernel.index()).between(-0.01, 0.01);
    }
    long cycles =
        Math.max(
            1, Math.round((gpu.limits().kernelLaunchLatency() + KERNEL_OVERHEAD + body) * scale));

    // The kernel's own character: the same on every config and replica.
    SplitMix64 character = SplitMix64.of(SplitMix64.hash(kernel.name()), kernel.index());
    double achieved = character.between(0.97, 0.995);
    double occupancyShare =
        busy <= 0 ? 0 : Math.min(1.0, warpTime / busy / gpu.maxWarpsPerSm() * achieved);
    double sectors = character.between(1.0, 4.0);
    double l1MissRate = character.between(0.15, 0.95);
    double l2MissRate = character.between(0.10, 0.90);
    double lanes =
        kernel.warpInstructions() == 0
            ? 0
            : kernel.threadInstructions() / (double) kernel.warpInstructions();
    long l1Accesses = Math.round((kernel.globalLoads() + kernel.globalStores()) * sectors);
    long l1Misses = Math.round(l1Accesses * l1MissRate);
    long l2Accesses = l1Misses;
    long l2Misses = Math.round(l2Accesses * l2MissRate);
    long dramWrites = Math.round(kernel.globalStores() * sectors * 0.5);
    return new KernelRun(
        cycles,
        occupancy.ctasPerSm,
        occupancy.limitedBy,
        waves,
        occupancyShare,
        l1Accesses,
        l1Misses,
        l2Accesses,
        l2Misses,
        l2Misses,
        dramWrites,
        Math.round(kernel.globalLoads() * lanes),
        Math.round(kernel.globalStores() * lanes),
        Math.round(kernel.sharedAccesses() * lanes));
  }

  /** A wave: its latency path, or the SM's schedulers when its warps have more to issue. */
  private static double wave(double activeWarps, double perWarp, double latency, EmulatedGpu gpu) {
    return Math.max(latency, activeWarps * perWarp / gpu.limits().schedulersPerSm());
  }

  /** One global load that misses the caches: L2, DRAM and the interconnect both ways. */
  static double roundTrip(EmulatedGpu gpu) {
    return gpu.memory().l2Latency() + gpu.memory().dramLatency() + INTERCONNECT_ROUND_TRIP;
  }

  /** Core cycles to move the kernel's DRAM traffic at the config's bandwidth. */
  static double memoryBound(EmulatedKernel kernel, EmulatedGpu gpu) {
    double bytes = kernel.loadBytes() + Math.max(0, kernel.storeBytes() - gpu.memory().l2Bytes());
    double bytesPerCycle =
        gpu.memory().bandwidthBytesPerSecond() * DRAM_EFFICIENCY / (gpu.clockMhz() * 1e6);
    return bytes / bytesPerCycle;
  }

  /** CTAs per SM and what limits them, with GPGPU-Sim's words for the limit. */
  record Occupancy(int ctasPerSm, String limitedBy) {}

  static Occupancy occupancy(EmulatedKernel kernel, EmulatedGpu gpu) {
    int warps = kernel.warpsPerBlock();
    long best = gpu.limits().maxCtasPerSm();
    String limitedBy = "cta_limit";
    long byThreads = gpu.limits().maxThreadsPerSm() / (32L * warps);
    if (byThreads < best) {
      best = byThreads;
      limitedBy = "threads";
    }
    int nregs = kernel.header().nregs();
    if (nregs > 0) {
      long perBlock = ((nregs + 7L) / 8 * 8) * 32L * warps;
      long byRegisters = gpu.limits().registersPerSm() / perBlock;
      if (byRegisters < best) {
        best = byRegisters;
        limitedBy = "regs";
      }
    }
    long shmem = kernel.header().shmem();
    if (shmem > 0) {
      long byShared = gpu.limits().sharedMemoryPerSm() / shmem;
      if (byShared < best) {
        best = byShared;
        limitedBy = "shmem";
      }
    }
    return new Occupancy((int) Math.max(1, best), limitedBy);
  }

  /**
   * The model's numbers for one kernel.
   *
   * @param cycles the kernel's cycles, launch latency and jitter included
   * @param ctasPerSm CTAs one SM holds at once
   * @param limitedBy what limits {@code ctasPerSm}
   * @param waves waves of CTAs
   * @param occupancy achieved occupancy of the busy SMs, 0 to 1
   */
  record KernelRun(
      long cycles,
      int ctasPerSm,
      String limitedBy,
      long waves,
      double occupancy,
      long l1Accesses,
      long l1Misses,
      long l2Accesses,
      long l2Misses,
      long dramReads,
      long dramWrites,
      long loadInstructions,
      long storeInstructions,
      long sharedInstructions) {}
}
