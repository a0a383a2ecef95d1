package dev.cascade.agent.emulator;

import dev.cascade.agent.emulator.EmulatedGpu.Limits;

/**
 * What Accel-Sim's tested-cfgs set per architecture, for options a config folder does not give and
 * for a catalog entry that knows only name, architecture, clock and SMs. Each is the tested config
 * of that architecture named beside it.
 *
 * @param limits the SM's limits and the launch latency
 * @param memory the memory system
 * @param interconnectRatio interconnect and L2 clock over the core clock
 */
record ArchDefaults(Limits limits, GpuMemory memory, double interconnectRatio) {

  static ArchDefaults of(String arch) {
    return switch (arch) {
      // SM90_H100
      case "sm_90" ->
          new ArchDefaults(
              new Limits(2048, 32, 65536, 233472, 4, 3000),
              new GpuMemory(40, 2, 1, 8, 4, 2, 3106, 40L * 2 * 256 * 128 * 20, 237, 194),
              2.0);
      // SM80_A100
      case "sm_80" ->
          new ArchDefaults(
              new Limits(2048, 32, 65536, 167936, 4, 5000),
              new GpuMemory(40, 4, 1, 16, 2, 2, 1512, 40L * 4 * 128 * 128 * 16, 200, 190),
              1.0);
      // SM86_RTX3070
      case "sm_86" ->
          new ArchDefaults(
              new Limits(1536, 32, 65536, 102400, 4, 5000),
              new GpuMemory(16, 2, 1, 2, 16, 4, 3500.5, 16L * 2 * 64 * 128 * 16, 187, 254),
              1.0);
      // SM75_RTX2060
      case "sm_75" ->
          new ArchDefaults(
              new Limits(1024, 16, 65536, 65536, 4, 5000),
              new GpuMemory(12, 2, 1, 2, 16, 4, 3500.5, 12L * 2 * 64 * 128 * 16, 194, 96),
              1.0);
      // SM7_QV100
      case "sm_70" ->
          new ArchDefaults(
              new Limits(2048, 32, 65536, 98304, 4, 5000),
              new GpuMemory(32, 2, 1, 16, 2, 2, 850, 32L * 2 * 32 * 128 * 24, 160, 100),
              1.0);
      // SM6_TITANX, and anything older or unknown
      default ->
          new ArchDefaults(
              new Limits(2048, 32, 65536, 98304, 4, 5000),
              new GpuMemory(12, 2, 1, 4, 8, 4, 2500, 12L * 2 * 64 * 128 * 16, 120, 100),
              1.0);
    };
  }
}
