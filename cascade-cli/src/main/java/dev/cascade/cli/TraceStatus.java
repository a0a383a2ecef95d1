package dev.cascade.cli;

import java.io.IOException;
import java.util.Optional;

/**
 * What Cascade says about a trace, as much as {@code cascade traces push} needs to wait for it.
 *
 * @param state {@code uploading}, {@code processing}, {@code ready} or {@code failed}
 * @param reason why it failed; null otherwise
 * @param kernelCount kernels in {@code kernelslist.g} once ready
 * @param updatedAt when the trace last changed, as the server writes it
 */
record TraceStatus(String state, String reason, int kernelCount, String updatedAt) {

  boolean finished() {
    return "ready".equals(state) || "failed".equals(state);
  }

  /** Where trace states come from: the HTTP API of a running Cascade, or a test's stand-in. */
  interface Source {
    /** The trace's status; empty while Cascade has not seen it. */
    Optional<TraceStatus> find(String id) throws IOException, InterruptedException;

    /** Where it asks, for messages. */
    String describe();
  }
}
