package dev.cascade.core.internal.demo;

/**
 * One kernel of a demo trace: what its header says and how much work each warp does.
 *
 * @param name the mangled or demangled kernel name, as the tracer records it
 * @param gridX blocks along x (y and z are {@code gridY}, 1)
 * @param blockThreads threads per block along x
 * @param mainLoop how many times a warp runs the kernel's inner loop of instructions
 * @param kind which instruction mix the loop uses
 */
record DemoKernel(
    String name,
    int gridX,
    int gridY,
    int blockThreads,
    int nregs,
    int shmem,
    int mainLoop,
    Kind kind) {

  /** The instruction mix of a kernel's inner loop. */
  enum Kind {
    GEMM,
    ATTENTION,
    ELEMENTWISE,
    /**
     * A few loads, an add and a store in opcodes every Accel-Sim ISA table has (Volta's onwards),
     * for {@code cascade doctor}'s one-kernel run of the real simulator.
     */
    SMOKE
  }
}
