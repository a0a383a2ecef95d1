package dev.cascade.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The phases of the ingest benchmark with thousands of sims at once: heartbeat latency while every
 * sim also sends chunks ({@link SimSwarm}), and chunks lost under a flood of them ({@link
 * ChunkFlood}), checked against {@code cascade.db} and the API.
 */
final class ManySimsPhases {

  /** Requests open at once in the lost-chunk phase. */
  static final int FLOOD_IN_FLIGHT = 512;

  /** What the lost-chunk phase found. */
  record LostCheck(ChunkFlood.Result flood, long stored, long lost, long extra, String logs) {}

  private final IngestSettings settings;

  ManySimsPhases(IngestSettings settings) {
    this.settings = settings;
  }

  /** Heartbeat round trips of {@code sims}, each a heartbeat every 2 s and a chunk every second. */
  SimSwarm.Result latency(EmbeddedCascade app, List<byte[]> bodies, List<SimRef> sims)
      throws InterruptedException {
    SimSwarm.Result swarm =
        SimSwarm.run(
            app.url(),
            sims,
            bodies,
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            settings.latencyWindow(),
            Duration.ofSeconds(40));
    System.out.printf(
        Locale.ROOT,
        "%,d emulated sims for %.0f s (heartbeat every 2 s, a chunk every second): %,d heartbeats"
            + " answered (offered about %,.0f/s), p50 %.1f ms, p99 %.1f ms, max %.1f ms; %,d"
            + " unanswered after %.1f s of drain; %,d of %,d chunks produced acknowledged;"
            + " refused: %s%n",
        swarm.sims(),
        swarm.windowSeconds(),
        swarm.heartbeats(),
        swarm.sims() / 2.0,
        swarm.latencies().millis(0.50),
        swarm.latencies().millis(0.99),
        swarm.latencies().maxMillis(),
        swarm.heartbeatsUnanswered(),
        swarm.drainSeconds(),
        swarm.chunks(),
        swarm.chunksProduced(),
        swarm.refused());
    return swarm;
  }

  /**
   * Every sim of {@code sims} sends its chunks; then the chunks acknowledged are compared with the
   * rows in {@code cascade.db}, and a sample of logs is read back.
   */
  LostCheck lost(EmbeddedCascade app, List<byte[]> bodies, List<SimRef> sims)
      throws InterruptedException, SQLException, IOException {
    ChunkFlood.Result flood =
        ChunkFlood.run(
            app.url(),
            sims,
            bodies,
            settings.lostChunks(),
            FLOOD_IN_FLIGHT,
            settings.lostCap(),
            Duration.ofSeconds(30));
    Thread.sleep(500);
    Map<String, StoredChunks.Stored> stored =
        StoredChunks.read(app.dataDir().resolve("cascade.db"));
    long held = 0;
    long lost = 0;
    long extra = 0;
    for (int i = 0; i < sims.size(); i++) {
      StoredChunks.Stored chunks = stored.get(sims.get(i).id());
      BitSet seqs = chunks == null ? new BitSet() : chunks.seqs();
      int acked = (int) flood.acked()[i];
      int heldOfAcked = seqs.get(0, acked).cardinality();
      held += seqs.cardinality();
      lost += acked - heldOfAcked;
      extra += seqs.cardinality() - heldOfAcked;
    }
    String logs = checkLogs(app.url(), sims, flood, stored, 50);
    System.out.printf(
        Locale.ROOT,
        "%,d sims x %d chunk(s), at most %d requests open: %,d sent, %,d acknowledged (%,d sims"
            + " reached) in %.1f s%s, each chunk followed by a heartbeat (%,d answered, p50 %.1f"
            + " ms, p99 %.1f ms); refused: %s%n"
            + "  cascade.db holds %,d of their chunks: %,d acknowledged but missing (lost), %,d"
            + " stored but not acknowledged; %s%n",
        sims.size(),
        settings.lostChunks(),
        FLOOD_IN_FLIGHT,
        flood.sent(),
        flood.ackedTotal(),
        flood.simsReached(),
        flood.seconds(),
        flood.capped() ? " (stopped by the " + settings.lostCap().toSeconds() + " s cap)" : "",
        flood.heartbeats().size(),
        flood.heartbeats().millis(0.50),
        flood.heartbeats().millis(0.99),
        flood.refused(),
        held,
        lost,
        extra,
        logs);
    return new LostCheck(flood, held, lost, extra, logs);
  }

  /**
   * Reads back, through {@code GET /api/sims/{id}/log}, the logs of up to {@code sample} sims whose
   * stored chunks are exactly the acknowledged ones, and compares their length with the bytes
   * acknowledged.
   */
  private static String checkLogs(
      String baseUrl,
      List<SimRef> sims,
      ChunkFlood.Result flood,
      Map<String, StoredChunks.Stored> stored,
      int sample)
      throws IOException, InterruptedException {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < sims.size(); i++) {
      StoredChunks.Stored held = stored.get(sims.get(i).id());
      if (flood.acked()[i] > 0 && held != null && held.seqs().cardinality() == flood.acked()[i]) {
        candidates.add(i);
      }
    }
    Collections.shuffle(candidates, new Random(1));
    int checked = 0;
    int wrong = 0;
    try (HttpClient client = HttpClient.newHttpClient()) {
      for (int index : candidates.subList(0, Math.min(sample, candidates.size()))) {
        HttpResponse<byte[]> response =
            client.send(
                HttpRequest.newBuilder(
                        URI.create(baseUrl + "/api/sims/" + sims.get(index).id() + "/log"))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        checked++;
        if (response.statusCode() != 200 || response.body().length != flood.ackedBytes()[index]) {
          wrong++;
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "GET /api/sims/{id}/log for %d of them: %d give back exactly the acknowledged bytes, %d"
            + " do not",
        checked,
        checked - wrong,
        wrong);
  }
}
