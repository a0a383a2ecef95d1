package dev.cascade.core.internal.http;

import dev.cascade.core.SimState;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's counters and gauges, written by hand in the Prometheus text format (version 0.0.4):
 * sims by state, heartbeats by reported state, chunks and bytes received, the launch latency (from
 * a sim's creation to its first heartbeat) as a histogram, event-stream clients, and responses by
 * status. Thread-safe; counting costs an uncontended add.
 */
final class MetricsRegistry {

  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /** Upper bounds of the launch latency histogram's buckets, in seconds. */
  static final double[] LAUNCH_BUCKETS = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300};

  private final Map<SimState, LongAdder> heartbeats = new EnumMap<>(SimState.class);
  private final LongAdder chunks = new LongAdder();
  private final LongAdder chunksDuplicate = new LongAdder();
  private final LongAdder chunkBytes = new LongAdder();
  private final LongAdder[] launchBuckets = new LongAdder[LAUNCH_BUCKETS.length];
  private final LongAdder launchCount = new LongAdder();
  private final DoubleAdder launchSum = new DoubleAdder();
  private final AtomicInteger sseClients = new AtomicInteger();
  private final LongAdder sseEvents = new LongAdder();
  private final Map<Integer, LongAdder> responses = new ConcurrentHashMap<>();

  MetricsRegistry() {
    for (SimState state : new SimState[] {SimState.RUNNING, SimState.SUCCEEDED, SimState.FAILED}) {
      heartbeats.put(state, new LongAdder());
    }
    for (int i = 0; i < launchBuckets.length; i++) {
      launchBuckets[i] = new LongAdder();
    }
  }

  void heartbeat(SimState reported) {
    LongAdder counter = heartbeats.get(reported);
    if (counter != null) {
      counter.increment();
    }
  }

  void chunk(int bytes, boolean stored) {
    chunks.increment();
    chunkBytes.add(bytes);
    if (!stored) {
      chunksDuplicate.increment();
    }
  }

  /** A sim's first heartbeat came {@code latency} after the sim was created. */
  void launched(Duration latency) {
    double seconds = Math.max(0, latency.toNanos() / 1e9);
    for (int i = 0; i < LAUNCH_BUCKETS.length; i++) {
      if (seconds <= LAUNCH_BUCKETS[i]) {
        launchBuckets[i].increment();
      }
    }
    launchCount.increment();
    launchSum.add(seconds);
  }

  void sseOpened() {
    sseClients.incrementAndGet();
  }

  void sseClosed() {
    sseClients.decrementAndGet();
  }

  void sseEvent() {
    sseEvents.increment();
  }

  int sseClients() {
    return sseClients.get();
  }

  void response(int status) {
    responses.computeIfAbsent(status, s -> new LongAdder()).increment();
  }

  long responses(int status) {
    LongAdder counter = responses.get(status);
    return counter == null ? 0 : counter.sum();
  }

  /** The exposition, with {@code simsByState} read from the store at scrape time. */
  String render(Map<SimState, Long> simsByState) {
    StringBuilder out = new StringBuilder(2048);
    header(out, "cascade_sims", "gauge", "Sims by state, over every run.");
    for (SimState state : SimState.values()) {
      sample(out, "cascade_sims", "state", state.wireName(), simsByState.getOrDefault(state, 0L));
    }
    header(
        out, "cascade_heartbeats_total", "counter", "Sim heartbeats received, by reported state.");
    heartbeats.forEach(
        (state, count) ->
            sample(out, "cascade_heartbeats_total", "state", state.wireName(), count.sum()));
    header(out, "cascade_chunks_received_total", "counter", "Output chunks received from sims.");
    sample(out, "cascade_chunks_received_total", null, null, chunks.sum());
    header(
        out,
        "cascade_chunks_duplicate_total",
        "counter",
        "Output chunks received again that were already stored.");
    sample(out, "cascade_chunks_duplicate_total", null, null, chunksDuplicate.sum());
    header(
        out, "cascade_chunk_bytes_received_total", "counter", "Bytes of output chunks received.");
    sample(out, "cascade_chunk_bytes_received_total", null, null, chunkBytes.sum());
    header(
        out,
        "cascade_sim_launch_latency_seconds",
        "histogram",
        "Time from a sim's creation to its first heartbeat.");
    for (int i = 0; i < LAUNCH_BUCKETS.length; i++) {
      sample(
          out,
          "cascade_sim_launch_latency_seconds_bucket",
          "le",
          number(LAUNCH_BUCKETS[i]),
          launchBuckets[i].sum());
    }
    long count = launchCount.sum();
    sample(out, "cascade_sim_launch_latency_seconds_bucket", "le", "+Inf", count);
    out.append("cascade_sim_launch_latency_seconds_sum ")
        .append(number(launchSum.sum()))
        .append('\n');
    sample(out, "cascade_sim_launch_latency_seconds_count", null, null, count);
    header(out, "cascade_sse_clients", "gauge", "Clients following a run's events right now.");
    sample(out, "cascade_sse_clients", null, null, sseClients.get());
    header(out, "cascade_sse_events_sent_total", "counter", "Events sent to event-stream clients.");
    sample(out, "cascade_sse_events_sent_total", null, null, sseEvents.sum());
    header(out, "cascade_http_responses_total", "counter", "HTTP responses, by status.");
    responses.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            entry ->
                sample(
                    out,
                    "cascade_http_responses_total",
                    "status",
                    Integer.toString(entry.getKey()),
                    entry.getValue().sum()));
    return out.toString();
  }

  private static void header(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(
      StringBuilder out, String name, String label, String labelValue, long value) {
    out.append(name);
    if (label != null) {
      out.append('{').append(label).append("=\"").append(labelValue).append("\"}");
    }
    out.append(' ').append(value).append('\n');
  }

  private static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return String.format(Locale.ROOT, "%s", value);
  }
}
