package dev.cascade.agent.emulator;

import dev.cascade.accelsim.config.ComputeCapability;
import dev.cascade.agent.emulator.EmulatedGpu.Limits;
import java.util.List;
import java.util.Map;

/**
 * The options a built-in config echoes at start, as a real run echoes its {@code gpgpusim.config}:
 * those the emulator knows, with their tested-cfgs names.
 */
final class BuiltInOptions {

  private BuiltInOptions() {}

  static List<Map.Entry<String, String>> of(
      GpuFacts config, Limits limits, GpuMemory memory, String domains) {
    ComputeCapability capability = capabilityOf(config.arch());
    int ways = 16;
    long sets = Math.max(1, memory.l2Bytes() / memory.l2Banks() / 128 / ways);
    return List.of(
        Map.entry("gpgpu_ptx_force_max_capability", digits(config.arch())),
        Map.entry(
            "gpgpu_compute_capability_major",
            capability == null ? "0" : Integer.toString(capability.major())),
        Map.entry(
            "gpgpu_compute_capability_minor",
            capability == null ? "0" : Integer.toString(capability.minor())),
        Map.entry("gpgpu_kernel_launch_latency", Integer.toString(limits.kernelLaunchLatency())),
        Map.entry("gpgpu_n_clusters", Integer.toString(config.sms())),
        Map.entry("gpgpu_n_cores_per_cluster", "1"),
        Map.entry("gpgpu_n_mem", Integer.toString(memory.channels())),
        Map.entry(
            "gpgpu_n_sub_partition_per_mchannel",
            Integer.toString(memory.subPartitionsPerChannel())),
        Map.entry("gpgpu_clock_domains", domains),
        Map.entry("gpgpu_shader_registers", Integer.toString(limits.registersPerSm())),
        Map.entry("gpgpu_shader_core_pipeline", limits.maxThreadsPerSm() + ":32"),
        Map.entry("gpgpu_shader_cta", Integer.toString(limits.maxCtasPerSm())),
        Map.entry("gpgpu_num_sched_per_core", Integer.toString(limits.schedulersPerSm())),
        Map.entry("gpgpu_shmem_size", Integer.toString(limits.sharedMemoryPerSm())),
        Map.entry("gpgpu_cache:dl2", "S:" + sets + ":128:" + ways + ",L:B:m:L:X,A:192:4,32:0,32"),
        Map.entry("gpgpu_l2_rop_latency", Integer.toString(memory.l2Latency())),
        Map.entry("dram_latency", Integer.toString(memory.dramLatency())),
        Map.entry("gpgpu_n_mem_per_ctrlr", Integer.toString(memory.chipsPerChannel())),
        Map.entry("gpgpu_dram_buswidth", Integer.toString(memory.busWidthBytes())),
        Map.entry("gpgpu_dram_burst_length", Integer.toString(memory.burstLength())),
        Map.entry("dram_data_command_freq_ratio", Integer.toString(memory.dataCommandRatio())));
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
}
