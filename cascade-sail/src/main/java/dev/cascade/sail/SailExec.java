package dev.cascade.sail;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A command to start in the background in a sandbox. The call returns once it has started; its
 * output goes wherever the command sends it.
 *
 * @param command the program and its arguments, passed as they are (no shell in between)
 * @param environment variables the command gets on top of the sandbox's own environment
 * @param idempotencyKey makes the exec happen once: an exec with a key the sandbox has seen
 *     reattaches to the command already started instead of starting it again
 */
public record SailExec(
    List<String> command, Map<String, String> environment, String idempotencyKey) {

  public SailExec {
    command = List.copyOf(command);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    if (command.isEmpty()) {
      throw new IllegalArgumentException("the command to exec is empty");
    }
    if (idempotencyKey.isBlank()) {
      throw new IllegalArgumentException("the idempotency key is blank; use the sim id");
    }
    for (String name : environment.keySet()) {
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new IllegalArgumentException(
            "\"" + name + "\" is not an environment variable name (letters, digits and _ only)");
      }
    }
  }
}
