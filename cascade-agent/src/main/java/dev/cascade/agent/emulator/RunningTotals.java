package dev.cascade.agent.emulator;

import dev.cascade.agent.emulator.TimingModel.KernelRun;

/** Running totals, as GPGPU-Sim keeps them across kernels. */
final class RunningTotals {
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
