package dev.cascade.core.internal.http;

import dev.cascade.core.Role;
import java.util.Objects;

/**
 * Who made a request: a user of the server, or the local admin ({@code local}: the server's own
 * token, or anyone on a server without one).
 */
record Caller(String name, Role role) {

  Caller {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
  }

  /** {@code alice (submitter)}: how refusals name the caller. */
  String described() {
    return name + " (" + role.wireName() + ")";
  }
}
