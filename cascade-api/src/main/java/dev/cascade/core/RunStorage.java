package dev.cascade.core;

/**
 * What a run keeps on disk, in bytes: its sims' logs as they sent them and as they are stored
 * (compressed), and its kernels' statistics as stored. The sims' results (kernels, cycles,
 * statistics) stay when a retention limit or {@code cascade gc} drops the logs.
 *
 * @param logBytes the logs' bytes as the sims sent them (what a download returns)
 * @param logStoredBytes the same logs as stored
 * @param statsStoredBytes every kernel's statistics as stored
 * @param simsWithLogsDropped how many of the run's sims had their log dropped by retention
 */
public record RunStorage(
    long logBytes, long logStoredBytes, long statsStoredBytes, int simsWithLogsDropped) {

  public RunStorage {
    requireNotNegative("logBytes", logBytes);
    requireNotNegative("logStoredBytes", logStoredBytes);
    requireNotNegative("statsStoredBytes", statsStoredBytes);
    requireNotNegative("simsWithLogsDropped", simsWithLogsDropped);
  }

  /** Bytes stored for the run's logs and statistics together. */
  public long storedBytes() {
    return logStoredBytes + statsStoredBytes;
  }

  private static void requireNotNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " cannot be negative; got " + value);
    }
  }
}
