package dev.cascade.accelsim.stats;

import java.util.Objects;

/**
 * The build strings a stats document shows for one log: the first Accel-Sim and the first GPGPU-Sim
 * build the log printed (a log that restarts the simulator prints them again).
 *
 * @param accelSim the text inside the first {@code Accel-Sim [build ...]}, or null when none yet
 * @param gpgpuSim the text inside the first {@code GPGPU-Sim ... [build ...]}, or null when none
 *     yet
 * @param accelSimVersion the version the first Accel-Sim build line names, or null
 * @param gpgpuSimVersion the version the first GPGPU-Sim build line names ({@code 4.2.0} of {@code
 *     GPGPU-Sim Simulator Version 4.2.0}), or null
 */
public record LogBuilds(
    String accelSim, String gpgpuSim, String accelSimVersion, String gpgpuSimVersion) {

  /** No build string seen yet. */
  public static final LogBuilds NONE = new LogBuilds(null, null, null, null);

  /** Builds without versions. */
  public LogBuilds(String accelSim, String gpgpuSim) {
    this(accelSim, gpgpuSim, null, null);
  }

  /** These builds with {@code build} added, unless its component has one already. */
  public LogBuilds with(BuildString build) {
    Objects.requireNonNull(build, "build");
    return switch (build.component()) {
      case ACCEL_SIM ->
          accelSim == null
              ? new LogBuilds(build.build(), gpgpuSim, build.version(), gpgpuSimVersion)
              : this;
      case GPGPU_SIM ->
          gpgpuSim == null
              ? new LogBuilds(accelSim, build.build(), accelSimVersion, build.version())
              : this;
    };
  }
}
