package dev.cascade.bench;

import java.util.List;

/**
 * What a closed-loop load run sends. Every request names a sim of {@code sims} (its id in the path,
 * its token in {@code Authorization}), spread round robin so that one sim's chunks are sent one
 * after the other, in order, from seq 0.
 *
 * @param baseUrl {@code http://127.0.0.1:port}
 * @param kind what to send
 * @param sims the sims to send for
 * @param chunks chunk bodies: chunk {@code seq} of a sim is {@code chunks[seq % size]}
 */
record LoadTarget(String baseUrl, Kind kind, List<SimRef> sims, List<byte[]> chunks) {

  /** The kinds of request. */
  enum Kind {
    /** {@code POST /bench/heartbeat} on the bare Javalin server, with a heartbeat's headers. */
    BASELINE,
    /** {@code POST /api/sims/{id}/heartbeat}. */
    HEARTBEAT,
    /** {@code PUT /api/sims/{id}/chunks/{seq}}. */
    CHUNK,
    /** {@code GET /healthz} on Cascade: the same server's cheapest answer, the second baseline. */
    HEALTHZ
  }

  /** What a sim sends as a running heartbeat, as the agent writes it. */
  static final String HEARTBEAT_BODY = "{\"state\":\"running\",\"chunks\":0}";

  static final String BASELINE_PATH = "/bench/heartbeat";

  LoadTarget {
    sims = List.copyOf(sims);
    chunks = List.copyOf(chunks);
    if (sims.isEmpty()) {
      throw new IllegalArgumentException("a load target needs sims");
    }
    if (kind == Kind.CHUNK && chunks.isEmpty()) {
      throw new IllegalArgumentException("a chunk load needs chunk bodies");
    }
  }

  String path(SimRef sim, long seq) {
    return switch (kind) {
      case BASELINE -> BASELINE_PATH;
      case HEARTBEAT -> "/api/sims/" + sim.id() + "/heartbeat";
      case CHUNK -> "/api/sims/" + sim.id() + "/chunks/" + seq;
      case HEALTHZ -> "/healthz";
    };
  }

  byte[] body(long seq) {
    return switch (kind) {
      case CHUNK -> chunks.get((int) (seq % chunks.size()));
      case HEALTHZ -> new byte[0];
      default -> HEARTBEAT_BODY.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    };
  }

  String method() {
    return switch (kind) {
      case CHUNK -> "PUT";
      case HEALTHZ -> "GET";
      default -> "POST";
    };
  }

  String contentType() {
    return kind == Kind.CHUNK ? "application/octet-stream" : "application/json";
  }
}
