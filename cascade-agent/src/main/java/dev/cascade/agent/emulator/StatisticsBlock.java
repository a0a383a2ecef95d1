package dev.cascade.agent.emulator;

import dev.cascade.agent.emulator.TimingModel.KernelRun;
import java.util.Locale;

/**
 * The statistics block GPGPU-Sim prints at the end of each kernel (DESIGN.md section 13): the
 * kernel's and the running totals' counts, the core and L2 cache stats, the interconnect and the
 * simulation rate, in the real simulator's words and layout.
 */
final class StatisticsBlock {

  private static final int MAX_CORE_LINES = 16;
  private static final int MAX_BANK_LINES = 16;

  private StatisticsBlock() {}

  /**
   * The statistics block of a finished (or stopped) kernel, {@code cycles} long; {@code t} already
   * includes it, {@code elapsed} is the run's reported wall time in whole seconds.
   */
  static void write(
      StringBuilder out,
      EmulatedGpu gpu,
      RunningTotals t,
      EmulatedKernel kernel,
      KernelRun run,
      long cycles,
      long elapsed) {
    long insn = t.lastThreadInstructions;
    double clockHz = gpu.clockMhz() * 1e6;
    line(out, "kernel_name = " + kernel.name() + " ");
    line(out, "kernel_launch_uid = " + kernel.index() + " ");
    line(out, "kernel_stream_id = " + kernel.header().cudaStreamId());
    line(out, "gpu_sim_cycle = " + cycles);
    line(out, "gpu_sim_insn = " + insn);
    line(out, "gpu_ipc = " + format("%12.4f", insn / (double) Math.max(1, cycles)));
    line(out, "gpu_tot_sim_cycle = " + t.cycles);
    line(out, "gpu_tot_sim_insn = " + t.threadInstructions);
    line(
        out,
        "gpu_tot_ipc = " + format("%12.4f", t.threadInstructions / (double) Math.max(1, t.cycles)));
    line(out, "gpu_tot_issued_cta = " + t.ctas);
    line(out, "gpu_occupancy = " + format("%.4f", run.occupancy() * 100) + "% ");
    line(out, "gpu_tot_occupancy = " + format("%.4f", t.occupancy() * 100) + "% ");
    line(out, "max_total_param_size = 0");
    line(out, "gpu_stall_dramfull = 0");
    line(out, "gpu_stall_icnt2sh    = 0");
    double parallelism = run.l2Accesses() / (double) Math.max(1, cycles);
    double totalParallelism = t.l2Accesses / (double) Math.max(1, t.cycles);
    line(out, "partiton_level_parallism = " + format("%12.4f", parallelism));
    line(out, "partiton_level_parallism_total  = " + format("%12.4f", totalParallelism));
    line(out, "partiton_level_parallism_util = " + format("%12.4f", parallelism > 0 ? 1.5 : 0.0));
    line(
        out,
        "partiton_level_parallism_util_total  = "
            + format("%12.4f", totalParallelism > 0 ? 1.5 : 0.0));
    line(out, "L2_BW  = " + format("%12.4f", parallelism * 32 * clockHz / 1e9) + " GB/Sec");
    line(
        out,
        "L2_BW_total  = " + format("%12.4f", totalParallelism * 32 * clockHz / 1e9) + " GB/Sec");
    line(out, "gpu_total_sim_rate=" + t.threadInstructions / elapsed);
    out.append('\n');

    out.append("========= Core cache stats =========\n");
    out.append("L1I_cache:\n");
    zeros(out, "\tL1I_total_cache_");
    out.append("L1D_cache:\n");
    long cores = Math.min(gpu.sms(), Math.max(1, t.ctas));
    int coreLines = Math.min(gpu.sms(), MAX_CORE_LINES);
    perUnit(out, "\tL1D_cache_core", coreLines, cores, t.l1Accesses, t.l1Misses);
    cacheTotals(out, "\tL1D", t.l1Accesses, t.l1Misses);
    portUtil(out, "\tL1D", t.l1Accesses, t.l1Misses, t.cycles * cores);
    out.append("L1C_cache:\n");
    zeros(out, "\tL1C_total_cache_");
    out.append("L1T_cache:\n");
    zeros(out, "\tL1T_total_cache_");
    out.append('\n');
    out.append("Total_core_cache_stats:\n");
    long readShare = t.loads + t.stores == 0 ? 0 : t.l1Accesses * t.loads / (t.loads + t.stores);
    long writeShare = t.l1Accesses - readShare;
    long readMisses = t.l1Accesses == 0 ? 0 : t.l1Misses * readShare / t.l1Accesses;
    long writeMisses = t.l1Misses - readMisses;
    breakdown(
        out, "\tTotal_core_cache_stats_breakdown", readShare, readMisses, writeShare, writeMisses);
    out.append('\n');
    out.append("Total_core_cache_fail_stats:\n");
    out.append("ctas_completed ").append(t.ctas).append(", Shader 0 warp_id issue ditsribution:\n");
    line(out, "gpgpu_n_tot_thrd_icount = " + t.warpInstructions * 32);
    line(out, "gpgpu_n_tot_w_icount = " + t.warpInstructions);
    line(out, "gpgpu_n_stall_shd_mem = 0");
    line(out, "gpgpu_n_mem_read_local = 0");
    line(out, "gpgpu_n_mem_write_local = 0");
    line(out, "gpgpu_n_mem_read_global = " + readMisses);
    line(out, "gpgpu_n_mem_write_global = " + writeShare);
    line(out, "gpgpu_n_mem_texture = 0");
    line(out, "gpgpu_n_mem_const = 0");
    line(out, "gpgpu_n_load_insn  = " + t.loadInstructions);
    line(out, "gpgpu_n_store_insn = " + t.storeInstructions);
    line(out, "gpgpu_n_shmem_insn = " + t.sharedInstructions);
    line(out, "gpgpu_n_sstarr_insn = 0");
    line(out, "gpgpu_n_tex_insn = 0");
    line(out, "gpgpu_n_const_mem_insn = 0");
    line(out, "gpgpu_n_param_mem_insn = 0");
    line(out, "gpgpu_n_shmem_bkconflict = 0");
    line(out, "gpgpu_n_l1cache_bkconflict = 0");
    line(out, "gpgpu_n_intrawarp_mshr_merge = 0");
    line(out, "gpgpu_n_cmem_portconflict = 0");
    line(out, "gpu_reg_bank_conflict_stalls = 0");
    long latency = Math.round(TimingModel.roundTrip(gpu) * t.latencyFactor);
    line(out, "maxmflatency = " + Math.round(latency * 1.4) + " ");
    line(out, "max_icnt2mem_latency = " + latency / 6 + " ");
    line(out, "maxmrqlatency = " + latency / 20 + " ");
    line(out, "max_icnt2sh_latency = " + latency / 25 + " ");
    line(out, "averagemflatency = " + latency + " ");
    line(out, "avg_icnt2mem_latency = " + latency / 9 + " ");
    line(out, "avg_mrq_latency = " + latency / 60 + " ");
    line(out, "avg_icnt2sh_latency = " + latency / 80 + " ");
    line(out, "total dram reads = " + t.dramReads);
    line(out, "total dram writes = " + t.dramWrites);
    out.append('\n');

    out.append("========= L2 cache stats =========\n");
    long banks = gpu.memory().l2Banks();
    int bankLines = (int) Math.min(banks, MAX_BANK_LINES);
    perUnit(out, "L2_cache_bank", bankLines, banks, t.l2Accesses, t.l2Misses);
    cacheTotals(out, "L2", t.l2Accesses, t.l2Misses);
    out.append("L2_total_cache_breakdown:\n");
    long l2Reads = t.l1Misses == 0 ? 0 : t.l2Accesses * readMisses / t.l1Misses;
    long l2Writes = t.l2Accesses - l2Reads;
    long l2ReadMisses = t.l2Accesses == 0 ? 0 : t.l2Misses * l2Reads / t.l2Accesses;
    breakdown(
        out,
        "\tL2_cache_stats_breakdown",
        l2Reads,
        l2ReadMisses,
        l2Writes,
        t.l2Misses - l2ReadMisses);
    out.append("L2_total_cache_reservation_fail_breakdown:\n");
    portUtil(out, "L2", t.l2Accesses, t.l2Misses, t.cycles * banks);
    out.append('\n');
    line(out, "icnt_total_pkts_mem_to_simt=" + t.l2Accesses);
    line(out, "icnt_total_pkts_simt_to_mem=" + t.l2Accesses);
    out.append(
        "----------------------------Interconnect-DETAILS--------------------------------\n");
    line(out, "Req_Network_injected_packets_num = " + t.l2Accesses);
    line(out, "Req_Network_cycles = " + t.cycles);
    line(
        out,
        "Req_Network_injected_packets_per_cycle = " + format("%12.4f", totalParallelism) + " ");
    out.append('\n');
    line(out, "Reply_Network_injected_packets_num = " + t.l2Accesses);
    line(out, "Reply_Network_cycles = " + t.cycles);
    line(out, "Reply_Network_injected_packets_per_cycle = " + format("%13.4f", totalParallelism));
    out.append(
        "----------------------------END-of-Interconnect-DETAILS-------------------------\n");
    out.append("\n\n");

    long cyclesPerSecond = t.cycles / elapsed;
    line(
        out,
        "gpgpu_simulation_time = "
            + elapsed / 86400
            + " days, "
            + elapsed % 86400 / 3600
            + " hrs, "
            + elapsed % 3600 / 60
            + " min, "
            + elapsed % 60
            + " sec ("
            + elapsed
            + " sec)");
    line(out, "gpgpu_simulation_rate = " + t.threadInstructions / elapsed + " (inst/sec)");
    line(out, "gpgpu_simulation_rate = " + cyclesPerSecond + " (cycle/sec)");
    line(out, "gpgpu_silicon_slowdown = " + (long) clockHz / Math.max(1, cyclesPerSecond) + "x");
  }

  private static void breakdown(
      StringBuilder out,
      String prefix,
      long reads,
      long readMisses,
      long writes,
      long writeMisses) {
    line(out, prefix + "[GLOBAL_ACC_R][HIT] = " + (reads - readMisses));
    line(out, prefix + "[GLOBAL_ACC_R][HIT_RESERVED] = 0");
    line(out, prefix + "[GLOBAL_ACC_R][MISS] = " + readMisses);
    line(out, prefix + "[GLOBAL_ACC_R][RESERVATION_FAIL] = 0");
    line(out, prefix + "[GLOBAL_ACC_R][SECTOR_MISS] = 0");
    line(out, prefix + "[GLOBAL_ACC_R][MSHR_HIT] = 0");
    line(out, prefix + "[GLOBAL_ACC_W][HIT] = " + (writes - writeMisses));
    line(out, prefix + "[GLOBAL_ACC_W][HIT_RESERVED] = 0");
    line(out, prefix + "[GLOBAL_ACC_W][MISS] = " + writeMisses);
    line(out, prefix + "[GLOBAL_ACC_W][RESERVATION_FAIL] = 0");
    line(out, prefix + "[GLOBAL_ACC_W][SECTOR_MISS] = 0");
    line(out, prefix + "[GLOBAL_ACC_W][MSHR_HIT] = 0");
    line(out, prefix + "[GLOBAL_ACC_R][TOTAL_ACCESS] = " + reads);
    line(out, prefix + "[GLOBAL_ACC_W][TOTAL_ACCESS] = " + writes);
  }

  private static void zeros(StringBuilder out, String prefix) {
    line(out, prefix + "accesses = 0");
    line(out, prefix + "misses = 0");
    line(out, prefix + "pending_hits = 0");
    line(out, prefix + "reservation_fails = 0");
  }

  /** Part {@code i} of {@code total} split over {@code parts}, the remainder to the first ones. */
  private static long share(long total, long parts, long i) {
    long base = total / parts;
    return base + (i < total % parts ? 1 : 0);
  }

  /**
   * One {@code label[i]: Access = ..., Miss = ...} line for each of the first {@code lines} units,
   * the counts shared over the {@code busy} units that did the work.
   */
  private static void perUnit(
      StringBuilder out, String label, int lines, long busy, long accesses, long misses) {
    for (int unit = 0; unit < lines; unit++) {
      long access = unit < busy ? share(accesses, busy, unit) : 0;
      long miss = unit < busy ? share(misses, busy, unit) : 0;
      out.append(label)
          .append('[')
          .append(unit)
          .append("]: Access = ")
          .append(access)
          .append(", Miss = ")
          .append(miss)
          .append(", Miss_rate = ")
          .append(access == 0 ? "-nan" : format("%.3f", miss / (double) access))
          .append(", Pending_hits = 0, Reservation_fails = 0\n");
    }
  }

  /** The {@code <cache>_total_cache_*} lines. */
  private static void cacheTotals(StringBuilder out, String cache, long accesses, long misses) {
    line(out, cache + "_total_cache_accesses = " + accesses);
    line(out, cache + "_total_cache_misses = " + misses);
    line(
        out,
        cache
            + "_total_cache_miss_rate = "
            + (accesses == 0 ? "-nan" : format("%.4f", misses / (double) accesses)));
    line(out, cache + "_total_cache_pending_hits = 0");
    line(out, cache + "_total_cache_reservation_fails = 0");
  }

  /** The data and fill port use of a cache with {@code portCycles} port-cycles in all. */
  private static void portUtil(
      StringBuilder out, String cache, long accesses, long misses, long portCycles) {
    double cycles = Math.max(1, portCycles);
    line(
        out, cache + "_cache_data_port_util = " + format("%.3f", Math.min(1.0, accesses / cycles)));
    line(out, cache + "_cache_fill_port_util = " + format("%.3f", Math.min(1.0, misses / cycles)));
  }

  private static void line(StringBuilder out, String text) {
    out.append(text).append('\n');
  }

  private static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }
}
