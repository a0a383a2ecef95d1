package dev.cascade.examples;

import java.util.Map;

/** The environment the examples' tests run them in: the emulator at full speed, traces at once. */
final class Fast {

  static final Map<String, String> ENVIRONMENT =
      Map.of("CASCADE_EMULATE_SPEED", "0", "CASCADE_UPLOAD_QUIET_S", "0.2");

  private Fast() {}
}
