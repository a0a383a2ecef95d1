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
 * @param version the version the line names before {@code [build}: {@code 4.2.0} of {@code
 *     GPGPU-Sim Simulator Version 4.2.0}; null when it names none (Accel-Sim's own line, {@code
 *     Accel-Sim [build ...]}, names none up to v2.0.0)
 */
public record BuildString(Component component, String build, String line, String version) {

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

  /** A build string whose line names no version. */
  public BuildString(Component component, String build, String line) {
    this(component, build, line, null);
  }

  /**
   * The version in the text of a build line before its {@code [build}: the first word that starts
   * with a digit or with {@code v} and a digit and holds a {@code .} ({@code 4.2.0}, {@code
   * v2.0.0}, without the {@code v}); null when there is none.
   */
  public static String versionIn(String beforeBuild) {
    for (String word : beforeBuild.trim().split("\\s+")) {
      String candidate =
          word.length() > 1 && (word.charAt(0) == 'v' || word.charAt(0) == 'V')
              ? word.substring(1)
              : word;
      if (!candidate.isEmpty()
          && Character.isDigit(candidate.charAt(0))
          && candidate.indexOf('.') > 0
          && candidate
              .chars()
              .allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '-')) {
        return candidate;
      }
    }
    return null;
  }
}
