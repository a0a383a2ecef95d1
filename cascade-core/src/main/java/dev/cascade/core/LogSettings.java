package dev.cascade.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How sims' logs are kept: compressed at rest (zstd; on by default: Accel-Sim logs shrink about 20
 * times), and for how long. With a retention limit, the logs (never the results) of finished sims
 * created longer ago than it are dropped, checked every hour ({@code CASCADE_LOG_RETENTION}, such
 * as {@code 30d}; none by default: logs are kept until {@code cascade gc} drops them).
 *
 * @param compress store new log chunks zstd-compressed; off stores them as they came (older
 *     databases' chunks read either way)
 * @param retention keep logs this long after their sim was created; null keeps them
 */
public record LogSettings(boolean compress, Duration retention) {

  public LogSettings {
    if (retention != null && retention.isNegative()) {
      throw new IllegalArgumentException("log retention cannot be negative; got " + retention);
    }
  }

  /** Compressed, kept until dropped by hand. */
  public static LogSettings defaults() {
    return new LogSettings(true, null);
  }

  public LogSettings withCompress(boolean compress) {
    return new LogSettings(compress, retention);
  }

  public LogSettings withRetention(Duration retention) {
    return new LogSettings(compress, Objects.requireNonNull(retention, "retention"));
  }

  /** The retention limit, when there is one. */
  public Optional<Duration> retentionLimit() {
    return Optional.ofNullable(retention);
  }
}
