package dev.cascade.core;

import java.util.Locale;

/** Where a trace is between its first uploaded file and being runnable. */
public enum TraceState {
  /** Files are arriving; the upload is not complete yet. */
  UPLOADING,
  /** The upload is complete; the post-processor and the fact reader are at work. */
  PROCESSING,
  /** {@code traces/kernelslist.g} exists: runs can launch. */
  READY,
  /** The profiler said so in {@code metadata.json}, or processing failed; the reason is kept. */
  FAILED;

  /** Ready or failed: the trace will not change state by itself any more. */
  public boolean isSettled() {
    return this == READY || this == FAILED;
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TraceState fromWireName(String value) {
    for (TraceState state : values()) {
      if (state.wireName().equals(value)) {
        return state;
      }
    }
    throw new IllegalArgumentException(
        "unknown trace state \"" + value + "\"; expected uploading, processing, ready or failed");
  }
}
