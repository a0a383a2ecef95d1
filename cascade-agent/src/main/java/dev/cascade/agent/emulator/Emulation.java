package dev.cascade.agent.emulator;

import dev.cascade.agent.emulator.TimingModel.KernelRun;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;

/**
 * One emulated Accel-Sim run, as a sequence of output pieces, each stamped with the simulated cycle
 * at which the real simulator would print it. Whoever drives it decides when to write each piece:
 * {@link Emulator} sleeps in between (or not, at speed 0); the sim agent's fleet schedules them on
 * an event loop. Pieces are made on demand, so memory stays small whatever the trace.
 *
 * <p>Per kernel: the launch lines, the {@code thread block = x,y,z} lines spread over the kernel's
 * cycles, and the statistics block at its end, with running totals. The bytes depend only on the
 * trace, the config, the replica, the seed, the speed (through the reported simulation time) and
 * the injected failure, never on the wall clock.
 *
 * <p>Not thread-safe.
 */
public final class Emulation {

  /**
   * Output to write once the run has reached {@code cycle}.
   *
   * @param cycle the simulated cycle (total since the start) at which the text is printed
   * @param bytes the text, whole lines, UTF-8
   */
  public record Piece(long cycle, byte[] bytes) {
    public Piece {
      Objects.requireNonNull(bytes, "bytes");
    }
  }

  /** The build string the emulator prints, so its logs are told apart from real ones. */
  public static final String BUILD = "cascade-emulator-1.0";

  /**
   * The simulation rate the printed {@code gpgpu_simulation_time} assumes at speed 0: 20,000 cycles
   * per second, about what Accel-Sim manages on a small GPU.
   */
  static final double REPORTED_RATE_AT_FULL_SPEED = 20_000;

  private static final int SPREAD_GROUPS = 4;
  private static final int MAX_CORE_LINES = 16;
  private static final int MAX_BANK_LINES = 16;

  private final EmulatedTrace trace;
  private final EmulatedGpu gpu;
  private final EmulatorOptions options;
  private final Deque<Piece> queue = new ArrayDeque<>();
  private final Totals totals = new Totals();
  private int step;
  private boolean started;
  private boolean ended;
  private int exitCode = -1;

  public Emulation(EmulatedTrace trace, EmulatedGpu gpu, EmulatorOptions options) {
    this.trace = Objects.requireNonNull(trace, "trace");
    this.gpu = Objects.requireNonNull(gpu, "gpu");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The next piece of output, or null when the run has ended (see {@link #exitCode()}). */
  public Piece next() {
    while (queue.isEmpty() && !ended) {
      produce();
    }
    return queue.poll();
  }

  /** The simulator's exit code once {@link #next()} has returned null; -1 before. */
  public int exitCode() {
    return queue.isEmpty() && ended ? exitCode : -1;
  }

  /** The total simulated cycles so far (of the pieces made, not necessarily written yet). */
  public long totalCycles() {
    return totals.cycles;
  }

  /** The trace being emulated. */
  public EmulatedTrace trace() {
    return trace;
  }

  /** The GPU being emulated. */
  public EmulatedGpu gpu() {
    return gpu;
  }

  private void produce() {
    if (!started) {
      started = true;
      queue.add(text(0, preamble()));
      return;
    }
    if (step < trace.steps().size()) {
      switch (trace.steps().get(step++)) {
        case EmulatedTrace.Memcpy memcpy ->
            queue.add(text(totals.cycles, "launching memcpy command : " + memcpy.line() + "\n"));
        case EmulatedTrace.Kernel kernel -> kernel(kernel.kernel());
      }
      return;
    }
    queue.add(text(totals.cycles, exitLines()));
    end(0);
  }

  private void end(int code) {
    ended = true;
    exitCode = code;
  }

  // -----------------------------------------------------------------------------------------------
  // A kernel

  private void kernel(EmulatedKernel kernel) {
    KernelRun run = TimingModel.run(kernel, gpu, options.seed(), options.replica());
    long start = totals.cycles;
    boolean failsHere = options.failAtKernel() == kernel.index();
    Failure failure = failsHere ? options.failure() : null;

    StringBuilder launch = new StringBuilder(1024);
    launch.append("Processing kernel ").append(kernel.file()).append('\n');
    for (Map.Entry<String, String> field : kernel.header().fields().entrySet()) {
      launch.append('-').append(field.getKey()).append(" = ").append(field.getValue()).append('\n');
    }
    if (failure == Failure.UNSUPPORTED_BINARY) {
      launch.append("unsupported binary version: ").append(kernel.header().binaryVersion());
      launch.append('\n');
      queue.add(text(start, launch));
      end(failure.exitCode());
      return;
    }
    launch.append("Header info loaded for kernel command : ").append(kernel.file()).append('\n');
    launch
        .append("launching kernel name: ")
        .append(kernel.name())
        .append(" uid: ")
        .append(kernel.index())
        .append(" cuda_stream_id: ")
        .append(kernel.header().cudaStreamId())
        .append('\n');
    launch
        .append("GPGPU-Sim uArch: Shader 0 bind to kernel ")
        .append(kernel.index())
        .append(" '")
        .append(kernel.name())
        .append("'\n");
    launch
        .append("GPGPU-Sim uArch: CTA/core = ")
        .append(run.ctasPerSm())
        .append(", limited by: ")
        .append(run.limitedBy())
        .append('\n');

    // Where the kernel stops early, when it does.
    long stopAt =
        failure == null
            ? run.cycles()
            : switch (failure) {
              case CRASH -> Math.max(1, run.cycles() / 3);
              default -> Math.max(1, run.cycles() / 2);
            };

    long blocks = kernel.blocks();
    int lines = (int) Math.min(blocks, options.blockLines());
    int groups = Math.min(SPREAD_GROUPS, Math.max(1, lines));
    StringBuilder current = launch;
    int printed = 0;
    for (int group = 0; group < groups; group++) {
      long at = start + run.cycles() * group / groups;
      if (at > start + stopAt) {
        break;
      }
      if (group > 0) {
        current = new StringBuilder(256);
      }
      int upTo = lines * (group + 1) / groups;
      for (; printed < upTo; printed++) {
        appendBlock(current, printed, kernel);
      }
      if (!current.isEmpty()) {
        queue.add(text(at, current));
      }
    }

    if (failure == null) {
      StringBuilder end = new StringBuilder(8192);
      end.append("Destroy streams for kernel ").append(kernel.index()).append(": size 0\n");
      totals.add(kernel, run, 1.0);
      statistics(end, kernel, run, run.cycles());
      queue.add(text(totals.cycles, end));
      return;
    }
    long at = start + stopAt;
    switch (failure) {
      case DEADLOCK -> {
        String text =
            "\n\nGPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 0 @ gpu_sim_cycle "
                + (stopAt - stopAt / 10)
                + " (+ gpu_tot_sim_cycle "
                + start
                + ") ("
                + stopAt / 10
                + " cycles ago)\n"
                + "GPGPU-Sim uArch: DEADLOCK  shader cores no longer committing instructions"
                + " [core(# threads)]:\n"
                + "GPGPU-Sim uArch: DEADLOCK  0(32)\n"
                + "\nRe-run the simulator in gdb and use debug routines in .gdbinit to debug this\n";
        queue.add(text(at, text));
        end(failure.exitCode());
      }
      case MAX_CYCLES -> {
        StringBuilder text = new StringBuilder(8192);
        text.append(
            "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n");
        long fraction = Math.max(1, stopAt);
        KernelRun partial = scaled(run, fraction);
        totals.add(kernel, partial, fraction / (double) Math.max(1, run.cycles()));
        statistics(text, kernel, partial, fraction);
        text.append(exitLines());
        queue.add(text(totals.cycles, text));
        end(failure.exitCode());
      }
      case CRASH -> end(failure.exitCode());
      default -> throw new IllegalStateException("unhandled failure " + failure);
    }
  }

  /** The part of a run's counts done after {@code cycles} of its cycles. */
  private static KernelRun scaled(KernelRun run, long cycles) {
    double f = Math.min(1.0, cycles / (double) Math.max(1, run.cycles()));
    return new KernelRun(
        cycles,
        run.ctasPerSm(),
        run.limitedBy(),
        run.waves(),
        run.occupancy(),
        Math.round(run.l1Accesses() * f),
        Math.round(run.l1Misses() * f),
        Math.round(run.l2Accesses() * f),
        Math.round(run.l2Misses() * f),
        Math.round(run.dramReads() * f),
        Math.round(run.dramWrites() * f),
        Math.round(run.loadInstructions() * f),
        Math.round(run.storeInstructions() * f),
        Math.round(run.sharedInstructions() * f));
  }

  private static void appendBlock(StringBuilder out, long linear, EmulatedKernel kernel) {
    long gx = Math.max(1, kernel.header().grid().x());
    long gy = Math.max(1, kernel.header().grid().y());
    out.append("thread block = ")
        .append(linear % gx)
        .append(',')
        .append((linear / gx) % gy)
        .append(',')
        .append(linear / (gx * gy))
        .append('\n');
  }

  // -----------------------------------------------------------------------------------------------
  // Text

  private String preamble() {
    StringBuilder out = new StringBuilder(8192);
    out.append("Accel-Sim [build ").append(BUILD).append("]\n\n");
    out.append("        *** GPGPU-Sim Simulator Version 4.2.0  [build ")
        .append(BUILD)
        .append("] ***\n\n\n");
    out.append("GPGPU-Sim: Configuration options:\n\n");
    for (Map.Entry<String, String> option : gpu.options()) {
      if (option.getKey().equals("trace")) {
        continue;
      }
      appendOption(out, option.getKey(), option.getValue());
    }
    appendOption(out, "trace", trace.kernelsList().toString());
    out.append("Total number of memory sub partition = ")
        .append(2 * gpu.memoryChannels())
        .append('\n');
    double[] hz = gpu.clockDomainsHz();
    out.append("GPGPU-Sim uArch: clock freqs: ");
    for (int i = 0; i < hz.length; i++) {
      out.append(i == 0 ? "" : ":").append(format("%.6f", hz[i]));
    }
    out.append("\nGPGPU-Sim uArch: clock periods: ");
    for (int i = 0; i < hz.length; i++) {
      out.append(i == 0 ? "" : ":").append(format("%.20f", 1 / hz[i]));
    }
    out.append('\n');
    out.append("Cascade emulator: analytical timing model, not a simulation; config ")
        .append(gpu.name())
        .append(" (")
        .append(gpu.arch())
        .append(", ")
        .append(gpu.sms())
        .append(" SMs, ")
        .append(format("%.0f", gpu.clockMhz()))
        .append(" MHz), replica ")
        .append(options.replica())
        .append(", seed ")
        .append(options.seed())
        .append('\n');
    out.append("*** Initializing Memory Statistics ***\n");
    out.append("GPGPU-Sim uArch: performance model initialization complete.\n");
    return out.toString();
  }

  private static void appendOption(StringBuilder out, String name, String value) {
    String description = DESCRIPTIONS.get(name);
    out.append(format("%-20s %20s", "-" + name, value));
    if (description != null) {
      out.append(" # ").append(description);
    }
    out.append('\n');
  }

  private static final Map<String, String> DESCRIPTIONS =
      Map.ofEntries(
          Map.entry("gpgpu_n_clusters", "number of processing clusters"),
          Map.entry("gpgpu_n_cores_per_cluster", "number of simd cores per cluster"),
          Map.entry(
              "gpgpu_clock_domains",
              "Clock Domain Frequencies in MhZ {<Core Clock>:<ICNT Clock>:<L2 Clock>:<DRAM"
                  + " Clock>}"),
          Map.entry(
              "gpgpu_shader_core_pipeline",
              "shader core pipeline config, i.e., {<nthread>:<warpsize>}"),
          Map.entry("gpgpu_shader_cta", "Maximum number of concurrent CTAs in shader (default 32)"),
          Map.entry(
              "gpgpu_shader_registers",
              "Number of registers per shader core. Limits number of concurrent CTAs. (default"
                  + " 8192)"),
          Map.entry("gpgpu_shmem_size", "Size of shared memory per shader core (default 16kB)"),
          Map.entry("gpgpu_num_sched_per_core", "Number of warp schedulers per core"),
          Map.entry("gpgpu_n_mem", "number of memory modules (e.g. memory controllers) in gpu"),
          Map.entry(
              "gpgpu_n_sub_partition_per_mchannel",
              "number of memory subpartition in each memory module"),
          Map.entry("gpgpu_compute_capability_major", "Major compute capability version number"),
          Map.entry("gpgpu_compute_capability_minor", "Minor compute capability version number"),
          Map.entry("gpgpu_kernel_launch_latency", "Kernel launch latency in cycles. Default: 0"),
          Map.entry("gpgpu_ptx_force_max_capability", "Force maximum compute capability"),
          Map.entry("trace", "traces kernel filetraces kernel file directory"));

  private static String exitLines() {
    return "GPGPU-Sim: *** simulation thread exiting ***\nGPGPU-Sim: *** exit detected ***\n";
  }

  /** The statistics block of a finished kernel; {@link #totals} already include it. */
  private void statistics(StringBuilder out, EmulatedKernel kernel, KernelRun run, long cycles) {
    Totals t = totals;
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
    long elapsed = elapsedSeconds();
    line(out, "gpu_total_sim_rate=" + t.threadInstructions / elapsed);
    out.append('\n');

    out.append("========= Core cache stats =========\n");
    out.append("L1I_cache:\n");
    zeros(out, "\tL1I_total_cache_");
    out.append("L1D_cache:\n");
    long cores = Math.min(gpu.sms(), Math.max(1, t.ctas));
    int coreLines = Math.min(gpu.sms(), MAX_CORE_LINES);
    for (int core = 0; core < coreLines; core++) {
      long access = core < cores ? share(t.l1Accesses, cores, core) : 0;
      long miss = core < cores ? share(t.l1Misses, cores, core) : 0;
      out.append("\tL1D_cache_core[")
          .append(core)
          .append("]: Access = ")
          .append(access)
          .append(", Miss = ")
          .append(miss)
          .append(", Miss_rate = ")
          .append(access == 0 ? "-nan" : format("%.3f", miss / (double) access))
          .append(", Pending_hits = 0, Reservation_fails = 0\n");
    }
    line(out, "\tL1D_total_cache_accesses = " + t.l1Accesses);
    line(out, "\tL1D_total_cache_misses = " + t.l1Misses);
    line(
        out,
        "\tL1D_total_cache_miss_rate = "
            + (t.l1Accesses == 0 ? "-nan" : format("%.4f", t.l1Misses / (double) t.l1Accesses)));
    line(out, "\tL1D_total_cache_pending_hits = 0");
    line(out, "\tL1D_total_cache_reservation_fails = 0");
    line(
        out,
        "\tL1D_cache_data_port_util = "
            + format("%.3f", Math.min(1.0, t.l1Accesses / (double) Math.max(1, t.cycles * cores))));
    line(
        out,
        "\tL1D_cache_fill_port_util = "
            + format("%.3f", Math.min(1.0, t.l1Misses / (double) Math.max(1, t.cycles * cores))));
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
    long latency =
        Math.round(TimingModel.MEMORY_LATENCY_NS * gpu.clockMhz() / 1000.0 * t.latencyFactor);
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
    long banks = 2L * gpu.memoryChannels();
    int bankLines = (int) Math.min(banks, MAX_BANK_LINES);
    for (int bank = 0; bank < bankLines; bank++) {
      long access = share(t.l2Accesses, banks, bank);
      long miss = share(t.l2Misses, banks, bank);
      out.append("L2_cache_bank[")
          .append(bank)
          .append("]: Access = ")
          .append(access)
          .append(", Miss = ")
          .append(miss)
          .append(", Miss_rate = ")
          .append(access == 0 ? "-nan" : format("%.3f", miss / (double) access))
          .append(", Pending_hits = 0, Reservation_fails = 0\n");
    }
    line(out, "L2_total_cache_accesses = " + t.l2Accesses);
    line(out, "L2_total_cache_misses = " + t.l2Misses);
    line(
        out,
        "L2_total_cache_miss_rate = "
            + (t.l2Accesses == 0 ? "-nan" : format("%.4f", t.l2Misses / (double) t.l2Accesses)));
    line(out, "L2_total_cache_pending_hits = 0");
    line(out, "L2_total_cache_reservation_fails = 0");
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
    line(
        out,
        "L2_cache_data_port_util = "
            + format("%.3f", Math.min(1.0, t.l2Accesses / (double) Math.max(1, t.cycles * banks))));
    line(
        out,
        "L2_cache_fill_port_util = "
            + format("%.3f", Math.min(1.0, t.l2Misses / (double) Math.max(1, t.cycles * banks))));
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

  /** Whole seconds the run would have taken so far: at {@code --speed}, or a real-ish rate. */
  private long elapsedSeconds() {
    double rate = options.speed() > 0 ? options.speed() : REPORTED_RATE_AT_FULL_SPEED;
    return Math.max(1, (long) (totals.cycles / rate));
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

  private static void line(StringBuilder out, String text) {
    out.append(text).append('\n');
  }

  private static String format(String pattern, Object... values) {
    return String.format(java.util.Locale.ROOT, pattern, values);
  }

  private static Piece text(long cycle, CharSequence text) {
    return new Piece(cycle, text.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Running totals, as GPGPU-Sim keeps them across kernels. */
  private static final class Totals {
    long cycles;
    long threadInstructions;
    long warpInstructions;
    long lastThreadInstructions;
    long ctas;
    long l1Accesses;
    long l1Misses;
    long l2Accesses;
    long l2Misses;
    long dramReads;
    long dramWrites;
    long loads;
    long stores;
    long loadInstructions;
    long storeInstructions;
    long sharedInstructions;
    double occupancyCycles;
    double latencyFactor = 1;

    /**
     * Adds a kernel's run; {@code done} is the share of its work done (1 unless the run stopped
     * early), {@code run} already counts only that share.
     */
    void add(EmulatedKernel kernel, KernelRun run, double done) {
      double f = Math.min(1.0, done);
      boolean whole = f >= 1.0;
      long kernelCycles = run.cycles();
      cycles += kernelCycles;
      lastThreadInstructions =
          whole ? kernel.threadInstructions() : Math.round(kernel.threadInstructions() * f);
      threadInstructions += lastThreadInstructions;
      warpInstructions +=
          whole ? kernel.warpInstructions() : Math.round(kernel.warpInstructions() * f);
      ctas += whole ? kernel.blocks() : Math.round(kernel.blocks() * f);
      l1Accesses += run.l1Accesses();
      l1Misses += run.l1Misses();
      l2Accesses += run.l2Accesses();
      l2Misses += run.l2Misses();
      dramReads += run.dramReads();
      dramWrites += run.dramWrites();
      loads += kernel.globalLoads();
      stores += kernel.globalStores();
      loadInstructions += run.loadInstructions();
      storeInstructions += run.storeInstructions();
      sharedInstructions += run.sharedInstructions();
      occupancyCycles += run.occupancy() * kernelCycles;
      latencyFactor = 0.8 + 0.4 * (l2Accesses == 0 ? 0.5 : l2Misses / (double) l2Accesses);
    }

    double occupancy() {
      return cycles == 0 ? 0 : occupancyCycles / cycles;
    }
  }
}
