package dev.cascade.bench;

import java.util.Locale;

/**
 * What one closed-loop load run measured.
 *
 * @param generator {@code wrk} or {@code java}
 * @param ok responses with a 2xx status
 * @param non2xx responses with another status
 * @param errors requests without a response (connect, read, timeout)
 * @param seconds the run's wall time
 * @param p50Ms median round trip, NaN when unknown
 * @param p99Ms 99th percentile round trip, NaN when unknown
 */
record LoadResult(
    String generator,
    long ok,
    long non2xx,
    long errors,
    double seconds,
    double p50Ms,
    double p99Ms) {

  /** 2xx responses per second. */
  double perSecond() {
    return ok / seconds;
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "%,.0f/s (%,d ok in %.1f s, %d non-2xx, %d errors; p50 %.1f ms, p99 %.1f ms; %s)",
        perSecond(),
        ok,
        seconds,
        non2xx,
        errors,
        p50Ms,
        p99Ms,
        generator);
  }
}
