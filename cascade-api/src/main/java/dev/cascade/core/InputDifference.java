package dev.cascade.core;

import java.util.Objects;

/**
 * One input of a config's sims in two runs, as their {@link Provenance} records it: the same, or
 * different, or unknown on either side (sims from before provenance was recorded, or a simulator
 * command Cascade cannot look inside).
 *
 * @param input which input: {@link #TRACE}, {@link #CONFIG}, {@link #SIMULATOR}, {@link
 *     #SIMULATOR_BUILD} or, when either run's config is a variant, {@link #CONFIG_OPTIONS}
 * @param baseline the baseline run's value; {@code unknown} when no sim recorded it, and the values
 *     joined with {@code " | "} when its sims disagree
 * @param run the other run's value, likewise
 * @param status whether the two differ
 */
public record InputDifference(String input, String baseline, String run, Status status) {

  /** The trace's content: {@code trace id (sha256:...)}. */
  public static final String TRACE = "trace";

  /** The GPU config's content: the hash of its {@code gpgpusim.config} and {@code trace.config}. */
  public static final String CONFIG = "config content";

  /**
   * The options a variant sets over its catalog config ({@code SM80_A100 with
   * -gpgpu_kernel_launch_latency 1000}); listed only when either run's config is a variant.
   */
  public static final String CONFIG_OPTIONS = "config options";

  /** The simulator as known before launch: the emulator's version or the binary's hash. */
  public static final String SIMULATOR = "simulator";

  /** The builds the simulator printed: {@code Accel-Sim [build ...]} and GPGPU-Sim's. */
  public static final String SIMULATOR_BUILD = "simulator build";

  /** The value shown when no sim recorded an input. */
  public static final String UNKNOWN = "unknown";

  /** Whether the input differs between the runs. */
  public enum Status {
    SAME("same"),
    DIFFERS("differs"),
    UNKNOWN("unknown");

    private final String wireName;

    Status(String wireName) {
      this.wireName = wireName;
    }

    /** The name in JSON: {@code same}, {@code differs}, {@code unknown}. */
    public String wireName() {
      return wireName;
    }
  }

  public InputDifference {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(baseline, "baseline");
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(status, "status");
  }

  /** The status of two values: unknown when either is, else same or differs. */
  public static InputDifference of(String input, String baseline, String run) {
    Status status =
        baseline.equals(UNKNOWN) || run.equals(UNKNOWN)
            ? Status.UNKNOWN
            : baseline.equals(run) ? Status.SAME : Status.DIFFERS;
    return new InputDifference(input, baseline, run, status);
  }
}
