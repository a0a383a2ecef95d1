package dev.cascade.core.spi;

import java.util.Optional;

/**
 * Starts and stops sims somewhere: local processes, Sail sandboxes, ... Implementations are found
 * with {@link java.util.ServiceLoader} and chosen by {@link #name()}, or handed to the builder as
 * an instance.
 */
public interface Launcher extends AutoCloseable {

  /** The name users choose this launcher by ({@code "local"}, {@code "sail"}). */
  String name();

  /** Why this launcher cannot be used here; empty when it can. */
  default Optional<String> unavailableReason() {
    return Optional.empty();
  }

  /**
   * Starts one sim and returns its launcher ref (a process id, a sandbox id), which {@link #stop}
   * takes later, possibly in another process after a restart.
   */
  String launch(SimLaunch launch) throws LaunchException;

  /** Stops a sim. Idempotent: a ref that is already gone is not an error. */
  void stop(String launcherRef);

  /** Releases the launcher's own resources; running sims are left alone. */
  @Override
  default void close() {}
}
