package dev.cascade.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a user of a shared server may do, each role including the ones before it: a {@link #VIEWER}
 * reads everything (runs, results, logs, events, traces); a {@link #SUBMITTER} also creates runs,
 * uploads hardware results, and cancels, retries and reruns their own runs; an {@link #ADMIN} does
 * everything, including other users' runs and the users themselves.
 */
public enum Role {
  VIEWER,
  SUBMITTER,
  ADMIN;

  /**
   * The name on the wire and on the command line: {@code viewer}, {@code submitter}, {@code admin}.
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True when this role may do what {@code needed} may. */
  public boolean includes(Role needed) {
    return compareTo(needed) >= 0;
  }

  /**
   * The role named {@code value}, in any letter case.
   *
   * @throws IllegalArgumentException naming the value and the roles there are
   */
  public static Role fromWireName(String value) {
    for (Role role : values()) {
      if (role.wireName().equalsIgnoreCase(value == null ? "" : value.strip())) {
        return role;
      }
    }
    throw new IllegalArgumentException(
        "role must be one of "
            + Arrays.stream(values()).map(Role::wireName).collect(Collectors.joining(", "))
            + "; got \""
            + value
            + "\"");
  }
}
