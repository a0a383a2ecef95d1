package dev.cascade.agent.emulator;

import java.util.Arrays;
import java.util.Locale;

/**
 * A failure the emulator can inject at a chosen kernel ({@code --fail-at-kernel N --failure KIND}),
 * for tests and demos of how failures show up.
 */
public enum Failure {
  /**
   * {@code GPGPU-Sim uArch: ERROR ** deadlock detected: ...} half way through the kernel, then exit
   * code 1.
   */
  DEADLOCK(1),
  /**
   * {@code unsupported binary version: N} after the kernel's header, then exit code 0: a failure
   * the exit code does not show, as with the real simulator.
   */
  UNSUPPORTED_BINARY(0),
  /**
   * {@code GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **} half way
   * through the kernel, its partial statistics, the exit lines, and exit code 0: the last kernel's
   * numbers are not final.
   */
  MAX_CYCLES(0),
  /** The output stops a third of the way through the kernel, exit code 139 (as a segfault). */
  CRASH(139);

  private final int exitCode;

  Failure(int exitCode) {
    this.exitCode = exitCode;
  }

  /** The emulator's exit code after this failure. */
  public int exitCode() {
    return exitCode;
  }

  /** The name on the command line: {@code deadlock}, {@code unsupported-binary}, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The failure named {@code label}.
   *
   * @throws IllegalArgumentException naming the value and the choices
   */
  public static Failure fromLabel(String label) {
    for (Failure failure : values()) {
      if (failure.label().equals(label)) {
        return failure;
      }
    }
    throw new IllegalArgumentException(
        "unknown failure '"
            + label
            + "'; choose one of "
            + String.join(", ", Arrays.stream(values()).map(Failure::label).toList()));
  }
}
