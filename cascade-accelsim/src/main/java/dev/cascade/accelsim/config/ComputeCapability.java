package dev.cascade.accelsim.config;

/** A CUDA compute capability such as 9.0; its architecture name is {@code sm_90}. */
public record ComputeCapability(int major, int minor) {

  public ComputeCapability {
    if (major < 1 || minor < 0 || minor > 9) {
      throw new IllegalArgumentException(
          "compute capability must be major >= 1 and minor 0 to 9; got " + major + "." + minor);
    }
  }

  /** The architecture name nvcc and Accel-Sim use: {@code sm_<major><minor>}. */
  public String arch() {
    return "sm_" + major + minor;
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
