package dev.cascade.agent.emulator;

/**
 * The emulator's analytical timing model: plausible, config-sensitive cycle counts, not a
 * simulation. For one kernel on one GPU:
 *
 * <ol>
 *   <li>CTAs per SM: the tightest of {@code -gpgpu_shader_cta}, threads ({@code
 *       -gpgpu_shader_core_pipeline}), registers ({@code -nregs} rounded up to 8, times threads)
 *       and shared memory ({@code -shmem}), as GPGPU-Sim's occupancy calculation does;
 *   <li>waves: {@code ceil(blocks / (sms * ctas per SM))}, the last one possibly partial;
 *   <li>per wave: the largest of a latency bound (each warp's instructions one after another,
 *       {@value #ALU_LATENCY} cycles each plus {@value #MEMORY_LATENCY_NS} ns of memory latency per
 *       global access and {@value #SHARED_LATENCY} cycles per shared one, two in flight), an issue
 *       bound (the SM's warps' instructions over its schedulers) and a memory bound ({@value
 *       #SECTORS_PER_ACCESS} sectors per global access over two sectors per memory channel per
 *       DRAM-side cycle), plus {@value #WAVE_OVERHEAD} cycles to launch and drain the wave;
 *   <li>cycles: {@code -gpgpu_kernel_launch_latency} plus the waves, times a replica jitter of at
 *       most +-{@value #JITTER_PERCENT}% (half per replica, half per kernel), drawn from the seed,
 *       the config's name, the replica and the kernel's position.
 * </ol>
 *
 * <p>So more SMs mean fewer waves and fewer cycles, a higher clock turns the fixed memory latency
 * in nanoseconds into more cycles but less time, more memory channels help memory-bound kernels,
 * and the same inputs always give the same numbers. The cache and DRAM counts printed beside the
 * cycles follow the kernel's memory instructions with per-kernel hit rates drawn from its name:
 * they are the same for every config and replica, as a trace's instructions are.
 */
final class TimingModel {

  static final double ALU_LATENCY = 6;
  static final double MEMORY_LATENCY_NS = 190;
  static final double SHARED_LATENCY = 30;
  static final double IN_FLIGHT_PER_WARP = 2;
  static final double SECTORS_PER_ACCESS = 4;
  static final double WAVE_OVERHEAD = 150;
  static final double REFERENCE_DRAM_MHZ = 1400;
  static final double JITTER_PERCENT = 2;

  private TimingModel() {}

  /**
   * What one kernel does on {@code gpu}.
   *
   * @param seed the emulator's base seed
   * @param replica the sim's replica number
   */
  static KernelRun run(EmulatedKernel kernel, EmulatedGpu gpu, long seed, int replica) {
    long blocks = kernel.blocks();
    int warps = kernel.warpsPerBlock();
    double perWarp = Math.max(1, kernel.warpInstructions()) / ((double) blocks * warps);

    Occupancy occupancy = occupancy(kernel, gpu);
    long slots = (long) gpu.sms() * occupancy.ctasPerSm;
    long fullWaves = blocks / slots;
    long rest = blocks % slots;

    double memoryLatency = MEMORY_LATENCY_NS * gpu.clockMhz() / 1000.0;
    double latencyPerInstruction =
        ALU_LATENCY + kernel.globalShare() * memoryLatency + kernel.sharedShare() * SHARED_LATENCY;
    double sectorsPerCycle =
        gpu.limits().memoryChannels() * 2.0 * REFERENCE_DRAM_MHZ / gpu.clockMhz();

    double fullWave =
        wave(
            occupancy.ctasPerSm,
            gpu.sms(),
            warps,
            perWarp,
            latencyPerInstruction,
            kernel,
            gpu,
            sectorsPerCycle);
    double busy = fullWaves * fullWave;
    double warpTime = fullWaves * fullWave * occupancy.ctasPerSm * warps;
    if (rest > 0) {
      int perSm = (int) Math.min(occupancy.ctasPerSm, (rest + gpu.sms() - 1) / gpu.sms());
      int busySms = (int) Math.min(rest, gpu.sms());
      double lastWave =
          wave(perSm, busySms, warps, perWarp, latencyPerInstruction, kernel, gpu, sectorsPerCycle);
      busy += lastWave;
      warpTime += lastWave * perSm * warps;
    }
    long waves = fullWaves + (rest > 0 ? 1 : 0);

    long configHash = SplitMix64.hash(gpu.name());
    double replicaJitter = SplitMix64.of(seed, configHash, replica).between(-0.01, 0.01);
    double kernelJitter =
        SplitMix64.of(seed, configHash, replica, kernel.index()).between(-0.01, 0.01);
    long cycles =
        Math.max(
            1,
            Math.round(
                (gpu.limits().kernelLaunchLatency() + busy) * (1 + replicaJitter + kernelJitter)));

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

  private static double wave(
      int ctasPerSm,
      int busySms,
      int warpsPerBlock,
      double perWarp,
      double latencyPerInstruction,
      EmulatedKernel kernel,
      EmulatedGpu gpu,
      double sectorsPerCycle) {
    double activeWarps = (double) ctasPerSm * warpsPerBlock;
    double latencyBound = perWarp * latencyPerInstruction / IN_FLIGHT_PER_WARP;
    double issueBound = activeWarps * perWarp / gpu.limits().schedulersPerSm();
    double memoryBound =
        busySms
            * activeWarps
            * perWarp
            * kernel.globalShare()
            * SECTORS_PER_ACCESS
            / sectorsPerCycle;
    return Math.max(latencyBound, Math.max(issueBound, memoryBound)) + WAVE_OVERHEAD;
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
