package dev.cascade.cli;

import dev.cascade.core.Sim;

/** A sim's error as the command prints it: its failure class first, {@code segfault: ...}. */
final class SimFailure {

  private SimFailure() {}

  /** {@code deadlock: GPGPU-Sim uArch: ERROR ** deadlock detected ...}; null without an error. */
  static String describe(Sim sim) {
    if (sim.error() == null) {
      return null;
    }
    return sim.failureClass() == null
        ? sim.error()
        : sim.failureClass().wireName() + ": " + sim.error();
  }
}
