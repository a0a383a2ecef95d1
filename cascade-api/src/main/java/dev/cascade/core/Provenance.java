package dev.cascade.core;

/**
 * What produced a sim's numbers: two sims with the same provenance, replica and kernel window give
 * the same results (Accel-Sim is deterministic), which is what {@code "reuse": true} relies on.
 *
 * @param traceHash {@code sha256:...} of the trace's {@code kernelslist.g} and the kernel files it
 *     lists, in list order; null when unknown
 * @param configHash {@code sha256:...} of the GPU config's {@code gpgpusim.config} and {@code
 *     trace.config}; null when unknown
 * @param simulator the simulator as known before launch: the emulator's version ({@code
 *     cascade-emulator-2.0}) or {@code sha256:...} of the simulator binary; null when neither is
 *     known (a command Cascade cannot look inside)
 * @param accelSimBuild the text inside the log's {@code Accel-Sim [build ...]}; null until printed
 * @param gpgpuSimBuild the text inside the log's {@code GPGPU-Sim ... [build ...]}; null until
 *     printed
 * @param reusedFrom the earlier sim whose results this sim took instead of simulating; null when it
 *     simulated
 */
public record Provenance(
    String traceHash,
    String configHash,
    String simulator,
    String accelSimBuild,
    String gpgpuSimBuild,
    String reusedFrom) {

  /** Nothing known. */
  public static final Provenance UNKNOWN = new Provenance(null, null, null, null, null, null);

  /** True when everything reuse compares is known: trace, config and simulator. */
  public boolean reusable() {
    return traceHash != null && configHash != null && simulator != null;
  }

  public Provenance withBuilds(String accelSim, String gpgpuSim) {
    return new Provenance(traceHash, configHash, simulator, accelSim, gpgpuSim, reusedFrom);
  }

  public Provenance withReusedFrom(String simId) {
    return new Provenance(traceHash, configHash, simulator, accelSimBuild, gpgpuSimBuild, simId);
  }
}
