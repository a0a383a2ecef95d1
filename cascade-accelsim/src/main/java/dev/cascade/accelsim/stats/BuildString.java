package dev.cascade.accelsim.stats;

import java.util.Objects;

/**
 * A build string the simulator prints at start, such as {@code Accel-Sim [build
 * accelsim-commit-...]}.
 *
 * @param component which program the build string belongs to
 * @param build the text inside {@code [build ...]}, for example {@code
 *     gpgpu-sim_git-commit-33644740_modified_3.0}
 * @param line the whole line, trimmed, for example {@code *** GPGPU-Sim Simulator Version 4.2.0
 *     [build ...] ***}
 */
public record BuildString(Component component, String build, String line) {

  /** The program a build string belongs to. */
  public enum Component {
    /** The Accel-Sim trace-driven front end: {@code Accel-Sim [build ...]}. */
    ACCEL_SIM,
    /** The GPGPU-Sim performance model: {@code *** GPGPU-Sim Simulator Version ... [build ...]}. */
    GPGPU_SIM
  }

  public BuildString {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(build, "build");
    Objects.requireNonNull(line, "line");
  }
}
