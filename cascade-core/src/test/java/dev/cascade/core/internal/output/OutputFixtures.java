package dev.cascade.core.internal.output;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.internal.Ids;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Fixtures for the output tests: runs with pending sims, and small Accel-Sim-style logs. */
final class OutputFixtures {

  static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

  private OutputFixtures() {}

  /** A new run on {@code demo} with a pending sim per replica of each entry, in entry order. */
  static Run newRun(RunEntry... entries) {
    Ids ids = new Ids(CLOCK);
    String runId = ids.newRunId();
    List<Sim> sims = new ArrayList<>();
    for (RunEntry entry : entries) {
      for (int replica = 0; replica < entry.count(); replica++) {
        sims.add(Sim.pending(ids.newSimId(), runId, entry.gpuConfig(), replica, 4, T0));
      }
    }
    return new Run(runId, "demo", List.of(entries), T0, sims);
  }

  /** Splits {@code bytes} at the given offsets. */
  static List<byte[]> split(byte[] bytes, int... at) {
    List<byte[]> pieces = new ArrayList<>();
    int start = 0;
    for (int end : at) {
      pieces.add(Arrays.copyOfRange(bytes, start, end));
      start = end;
    }
    pieces.add(Arrays.copyOfRange(bytes, start, bytes.length));
    return pieces;
  }

  /**
   * An Accel-Sim log as the simulator prints it: a header, then per kernel a launch line, thread
   * blocks and a statistics block with running totals, and the exit lines.
   */
  static final class AccelSimLog {
    private final StringBuilder text = new StringBuilder();
    private long totalCycles;
    private long totalInsn;
    private int uid;

    AccelSimLog() {
      text.append("Accel-Sim [build accelsim-commit-test]\n")
          .append("*** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-test] ***\n")
          .append("-gpgpu_clock_domains 1980.0:1980.0:1980.0:2619.0\n")
          .append("GPGPU-Sim uArch: performance model initialization complete.\n");
    }

    /** Launches a kernel: the {@code launching kernel name:} line and its thread blocks. */
    AccelSimLog launch(String name) {
      uid++;
      text.append("launching memcpy command : MemcpyHtoD,0x00007f73bee00000,4000\n")
          .append("Processing kernel /traces/kernel-")
          .append(uid)
          .append(".traceg\n")
          .append("launching kernel name: ")
          .append(name)
          .append(" uid: ")
          .append(uid)
          .append(" cuda_stream_id: 0\n")
          .append("thread block = 0,0,0\n")
          .append("thread block = 1,0,0\n");
      return this;
    }

    /** The launched kernel finishes after {@code cycles} cycles and {@code insn} instructions. */
    AccelSimLog finish(String name, long cycles, long insn) {
      totalCycles += cycles;
      totalInsn += insn;
      text.append("Destroy streams for kernel ")
          .append(uid)
          .append(": size 0\n")
          .append("kernel_name = ")
          .append(name)
          .append(" \n")
          .append("kernel_launch_uid = ")
          .append(uid)
          .append(" \n")
          .append("gpu_sim_cycle = ")
          .append(cycles)
          .append('\n')
          .append("gpu_sim_insn = ")
          .append(insn)
          .append('\n')
          .append(String.format(Locale.ROOT, "gpu_ipc =      %.4f\n", (double) insn / cycles))
          .append("gpu_tot_sim_cycle = ")
          .append(totalCycles)
          .append('\n')
          .append("gpu_tot_sim_insn = ")
          .append(totalInsn)
          .append('\n')
          .append(
              String.format(
                  Locale.ROOT, "gpu_tot_ipc =      %.4f\n", (double) totalInsn / totalCycles))
          .append("gpu_occupancy = 16.4256% \n")
          .append("L2_BW  =       3.7424 GB/Sec\n")
          .append("\tL2_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 12\n")
          .append("gpgpu_simulation_time = 0 days, 0 hrs, 0 min, 1 sec (1 sec)\n")
          .append("gpgpu_simulation_rate = 209400 (inst/sec)\n")
          .append("gpgpu_simulation_rate = 9118 (cycle/sec)\n")
          .append("gpgpu_silicon_slowdown = 124150x\n");
      return this;
    }

    /** A kernel launched and finished. */
    AccelSimLog kernel(String name, long cycles, long insn) {
      return launch(name).finish(name, cycles, insn);
    }

    AccelSimLog line(String line) {
      text.append(line).append('\n');
      return this;
    }

    AccelSimLog exit() {
      text.append("GPGPU-Sim: *** simulation thread exiting ***\n")
          .append("GPGPU-Sim: *** exit detected ***\n");
      return this;
    }

    String text() {
      return text.toString();
    }

    byte[] bytes() {
      return text.toString().getBytes(StandardCharsets.UTF_8);
    }
  }
}
