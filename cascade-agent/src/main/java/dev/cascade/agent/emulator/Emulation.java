package dev.cascade.agent.emulator;

import dev.cascade.agent.emulator.TimingModel.KernelRun;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
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
  public static final String BUILD = "cascade-emulator-2.0";

  /**
   * The simulation rate the printed {@code gpgpu_simulation_time} assumes at speed 0: 20,000 cycles
   * per second, about what Accel-Sim manages on a small GPU.
   */
  static final double REPORTED_RATE_AT_FULL_SPEED = 20_000;

  private static final int SPREAD_GROUPS = 4;

  private final EmulatedTrace trace;
  private final EmulatedGpu gpu;
  private final EmulatorOptions options;
  private final Deque<Piece> queue = new ArrayDeque<>();
  private final RunningTotals totals = new RunningTotals();
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
    KernelRun run =
        TimingModel.run(kernel, gpu, options.seed(), options.replica(), options.jitter());
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
      StatisticsBlock.write(end, gpu, totals, kernel, run, run.cycles(), elapsedSeconds());
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
        StatisticsBlock.write(text, gpu, totals, kernel, partial, fraction, elapsedSeconds());
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
        .append(gpu.memory().l2Banks())
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
        .append(" MHz, ")
        .append(format("%.0f", gpu.memory().bandwidthBytesPerSecond() / 1e9))
        .append(" GB/s DRAM, ")
        .append(format("%.0f", gpu.memory().l2Bytes() / 1048576.0))
        .append(" MB L2), replica ")
        .append(options.replica())
        .append(", seed ")
        .append(options.seed())
        .append(options.jitter() ? ", replica jitter on" : ", deterministic (no replica jitter)")
        .append('\n');
    List<String> notModelled = EmulatedGpu.notModelledIn(gpu.directory());
    if (!notModelled.isEmpty()) {
      out.append("Cascade emulator: this variant sets ")
          .append(String.join(", ", notModelled))
          .append(", which the timing model does not read: its numbers do not follow ")
          .append(notModelled.size() == 1 ? "it" : "them")
          .append(" (a real Accel-Sim run would)\n");
    }
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

  /** Whole seconds the run would have taken so far: at {@code --speed}, or a real-ish rate. */
  private long elapsedSeconds() {
    double rate = options.speed() > 0 ? options.speed() : REPORTED_RATE_AT_FULL_SPEED;
    return Math.max(1, (long) (totals.cycles / rate));
  }

  private static String format(String pattern, Object... values) {
    return String.format(java.util.Locale.ROOT, pattern, values);
  }

  private static Piece text(long cycle, CharSequence text) {
    return new Piece(cycle, text.toString().getBytes(StandardCharsets.UTF_8));
  }
}
