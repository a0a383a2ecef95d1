package dev.cascade.bench;

import java.util.Objects;

/**
 * A sim the load benchmarks talk to: its id and the token it presents, as a launcher hands them to
 * a real sim ({@code CASCADE_SIM_ID}, {@code CASCADE_SIM_TOKEN}).
 */
record SimRef(String id, String token) {

  SimRef {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(token, "token");
  }

  String authorization() {
    return "Bearer " + token;
  }
}
