package dev.cascade.sail;

import java.util.Optional;

/**
 * The Sail calls the launcher needs, and nothing more: checkpoint the app's own sandbox, start a
 * sandbox from a checkpoint, exec a command in it in the background, and terminate it. {@link
 * CliSailClient} drives the {@code sail} command line; the tests use a fake service whose sandboxes
 * are local folders and processes.
 *
 * <p>Every call may block on the network. An interrupted call gives up at once and throws {@link
 * InterruptedException}. Failures are {@link SailException}s whose kind says whether trying again
 * can help.
 */
public interface SailClient {

  /** Why this client cannot be used here (no CLI, no API key, ...); empty when it can. */
  default Optional<String> unavailableReason() {
    return Optional.empty();
  }

  /** The id of the sandbox the app itself runs in: the one whose disk sims start from. */
  String ownSandboxId();

  /** The id of the usable checkpoint of {@code sandboxId} called {@code name}, if there is one. */
  Optional<String> findCheckpoint(String sandboxId, String name)
      throws SailException, InterruptedException;

  /**
   * Checkpoints {@code sandboxId}, which keeps running, as {@code name}, and returns the
   * checkpoint's id once it can be started from.
   */
  String checkpoint(String sandboxId, String name) throws SailException, InterruptedException;

  /** The id of the live (not terminated) sandbox called {@code name}, if there is one. */
  Optional<String> findSandbox(String name) throws SailException, InterruptedException;

  /**
   * Starts a new sandbox called {@code name} from a checkpoint and returns its id once it runs.
   * With {@code restoreMemory} false it boots fresh from the saved disk instead of resuming the
   * checkpointed processes.
   */
  String createFromCheckpoint(String checkpointId, String name, boolean restoreMemory)
      throws SailException, InterruptedException;

  /**
   * Starts {@code exec} in the background in {@code sandboxId} and returns the exec's id. An exec
   * whose idempotency key the sandbox has seen returns the id of the one already started.
   *
   * @throws SailException {@code NOT_FOUND} when the sandbox is gone
   */
  String exec(String sandboxId, SailExec exec) throws SailException, InterruptedException;

  /** Terminates a sandbox and everything in it. A sandbox that is already gone is not an error. */
  void terminate(String sandboxId) throws SailException, InterruptedException;
}
