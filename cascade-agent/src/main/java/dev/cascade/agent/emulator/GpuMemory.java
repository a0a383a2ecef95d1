package dev.cascade.agent.emulator;

/**
 * A GPU's memory system as its {@code gpgpusim.config} states it: what the timing model's memory
 * bound and latencies come from.
 *
 * @param channels {@code -gpgpu_n_mem}, memory channels (controllers)
 * @param subPartitionsPerChannel {@code -gpgpu_n_sub_partition_per_mchannel}, L2 slices per channel
 * @param chipsPerChannel {@code -gpgpu_n_mem_per_ctrlr}
 * @param busWidthBytes {@code -gpgpu_dram_buswidth}, bytes per chip per data beat
 * @param burstLength {@code -gpgpu_dram_burst_length}, beats per access
 * @param dataCommandRatio {@code -dram_data_command_freq_ratio}, data beats per DRAM clock (2 for
 *     DDR)
 * @param dramClockMhz the fourth field of {@code -gpgpu_clock_domains}
 * @param l2Bytes the whole L2: {@code -gpgpu_cache:dl2}'s sets x line x ways per sub-partition
 * @param l2Latency {@code -gpgpu_l2_rop_latency}, core cycles
 * @param dramLatency {@code -dram_latency}, core cycles
 */
public record GpuMemory(
    int channels,
    int subPartitionsPerChannel,
    int chipsPerChannel,
    int busWidthBytes,
    int burstLength,
    int dataCommandRatio,
    double dramClockMhz,
    long l2Bytes,
    int l2Latency,
    int dramLatency) {

  public GpuMemory {
    positive("memory channels (-gpgpu_n_mem)", channels);
    positive("sub-partitions per channel", subPartitionsPerChannel);
    positive("chips per channel (-gpgpu_n_mem_per_ctrlr)", chipsPerChannel);
    positive("DRAM bus width (-gpgpu_dram_buswidth)", busWidthBytes);
    positive("DRAM burst length (-gpgpu_dram_burst_length)", burstLength);
    positive("DRAM data/command ratio (-dram_data_command_freq_ratio)", dataCommandRatio);
    positive("DRAM clock", dramClockMhz);
    positive("L2 size", l2Bytes);
    if (l2Latency < 0 || dramLatency < 0) {
      throw new IllegalArgumentException(
          "memory latencies cannot be negative; got L2 " + l2Latency + ", DRAM " + dramLatency);
    }
  }

  /**
   * Peak DRAM bandwidth in bytes per second: channels x chips x bus width x beats per clock x DRAM
   * clock, as GPGPU-Sim's DRAM model moves data.
   */
  public double bandwidthBytesPerSecond() {
    return (double) channels
        * chipsPerChannel
        * busWidthBytes
        * dataCommandRatio
        * dramClockMhz
        * 1e6;
  }

  /** The smallest DRAM transfer: one burst on every chip of a channel (32 bytes on these GPUs). */
  public int atomBytes() {
    return burstLength * busWidthBytes * chipsPerChannel;
  }

  /** L2 slices, each with its own bank lines in the statistics. */
  public int l2Banks() {
    return channels * subPartitionsPerChannel;
  }

  private static void positive(String what, double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException(what + " must be positive; got " + value);
    }
  }
}
