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
 * @param accelSimVersion the version the log's {@code Accel-Sim ... [build ...]} line names; null
 *     when it names none (Accel-Sim up to v2.0.0 prints only its build) or until printed
 * @param gpgpuSimVersion the version the log's GPGPU-Sim line names, {@code 4.2.0} of {@code ***
 *     GPGPU-Sim Simulator Version 4.2.0 [build ...] ***}; null until printed
 */
public record Provenance(
    String traceHash,
    String configHash,
    String simulator,
    String accelSimBuild,
    String gpgpuSimBuild,
    String reusedFrom,
    String accelSimVersion,
    String gpgpuSimVersion) {

  /** Nothing known. */
  public static final Provenance UNKNOWN =
      new Provenance(null, null, null, null, null, null, null, null);

  /** Provenance without the versions the log names. */
  public Provenance(
      String traceHash,
      String configHash,
      String simulator,
      String accelSimBuild,
      String gpgpuSimBuild,
      String reusedFrom) {
    this(traceHash, configHash, simulator, accelSimBuild, gpgpuSimBuild, reusedFrom, null, null);
  }

  /** True when everything reuse compares is known: trace, config and simulator. */
  public boolean reusable() {
    return traceHash != null && configHash != null && simulator != null;
  }

  public Provenance withBuilds(String accelSim, String gpgpuSim) {
    return new Provenance(
        traceHash,
        configHash,
        simulator,
        accelSim,
        gpgpuSim,
        reusedFrom,
        accelSimVersion,
        gpgpuSimVersion);
  }

  /** These inputs with the versions the log's build lines named. */
  public Provenance withVersions(String accelSim, String gpgpuSim) {
    return new Provenance(
        traceHash,
        configHash,
        simulator,
        accelSimBuild,
        gpgpuSimBuild,
        reusedFrom,
        accelSim,
        gpgpuSim);
  }

  public Provenance withReusedFrom(String simId) {
    return new Provenance(
        traceHash,
        configHash,
        simulator,
        accelSimBuild,
        gpgpuSimBuild,
        simId,
        accelSimVersion,
        gpgpuSimVersion);
  }
}
