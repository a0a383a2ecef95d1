package dev.cascade.bench;

import java.util.Locale;

/**
 * What the ingest benchmark measured, against the targets of DESIGN.md section 15; a phase not run
 * is null.
 */
record IngestSummary(
    LoadResult baseline,
    LoadResult heartbeat,
    LoadResult chunks,
    SimSwarm.Result swarm,
    ManySimsPhases.LostCheck lost,
    double probeSingle,
    double probeGroup) {

  static final double TARGET_RATIO = 0.5;
  static final double TARGET_CHUNKS_PER_SECOND = 20_000;
  static final double TARGET_P99_MS = 50;

  /**
   * Prints the summary; {@code inProcessGenerator} says the load came from this JVM, which makes
   * the ratio mean little.
   */
  void print(boolean inProcessGenerator) {
    System.out.println();
    System.out.println("== summary ==");
    if (baseline != null) {
      System.out.printf(
          Locale.ROOT,
          "bare Javalin POST:        %,10.0f requests/s (the better of two measurements)%n",
          baseline.perSecond());
    }
    if (heartbeat != null) {
      System.out.printf(
          Locale.ROOT, "Cascade heartbeat:        %,10.0f requests/s%n", heartbeat.perSecond());
    }
    if (baseline != null && heartbeat != null) {
      double ratio = heartbeat.perSecond() / baseline.perSecond();
      System.out.printf(
          Locale.ROOT,
          "ratio heartbeat / bare:   %10.3f   (target >= %.1f: %s)%n",
          ratio,
          TARGET_RATIO,
          ratio >= TARGET_RATIO ? "met" : "NOT met, " + times(TARGET_RATIO / ratio) + " short");
      if (inProcessGenerator) {
        System.out.println(
            "  (the JDK generator runs in this JVM and caps the baseline far below what the server"
                + " can do: the ratio means little; install wrk)");
      }
    }
    if (chunks != null) {
      double rate = chunks.perSecond();
      System.out.printf(
          Locale.ROOT,
          "durable chunks:           %,10.0f chunks/s   (target >= %,.0f: %s)%n",
          rate,
          TARGET_CHUNKS_PER_SECOND,
          rate >= TARGET_CHUNKS_PER_SECOND
              ? "met"
              : "NOT met, " + times(TARGET_CHUNKS_PER_SECOND / rate) + " short");
    }
    if (swarm != null) {
      double p99 = swarm.latencies().millis(0.99);
      boolean met = p99 < TARGET_P99_MS && swarm.heartbeatsUnanswered() == 0;
      System.out.printf(
          Locale.ROOT,
          "heartbeat at %,d sims:    p50 %.1f ms, p99 %.1f ms   (target p99 < %.0f ms: %s)%n",
          swarm.sims(),
          swarm.latencies().millis(0.50),
          p99,
          TARGET_P99_MS,
          met ? "met" : "NOT met, " + times(p99 / TARGET_P99_MS) + " over");
    }
    if (lost != null) {
      ChunkFlood.Result flood = lost.flood();
      int sims = flood.acked().length;
      System.out.printf(
          Locale.ROOT,
          "chunks lost at %,d sims: %d of %,d acknowledged   (target 0: %s)%s%n",
          sims,
          lost.lost(),
          flood.ackedTotal(),
          lost.lost() == 0 ? "met" : "NOT met",
          flood.simsReached() == sims
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; only %,d of the %,d sims got a chunk within the cap",
                  flood.simsReached(),
                  sims));
    }
    System.out.printf(
        Locale.ROOT,
        "SQLite durable commits here: %,.0f/s of one row, %,.0f rows/s in commits of 100%n",
        probeSingle,
        probeGroup);
  }

  private static String times(double factor) {
    return String.format(Locale.ROOT, "%.1fx", factor);
  }
}
