package dev.cascade.bench;

/**
 * The rows of the server-at-fleet-scale table (issue 14, DESIGN.md section 15), in the order the
 * summary prints them. Each benchmark records the rows it measures; the summary names the rest as
 * not measured.
 */
enum GoalRow {
  HEARTBEAT_VS_BARE("heartbeats/s against a bare Javalin POST", ">= 0.5x"),
  HEARTBEAT_VS_HEALTHZ("heartbeats/s against the server's /healthz, 64 connections", ">= 0.5x"),
  CHUNKS_CLOSED_LOOP("durable chunk PUTs/s (4 KiB of Accel-Sim output)", ">= 20,000/s"),
  CHUNKS_16_SENDERS("durable chunk PUTs/s from 16 concurrent senders", ">= 10,000/s"),
  HEARTBEAT_P99_2000("heartbeat p99 at 2,000 emulated sims", "< 50 ms"),
  LOST_10000("10,000 emulated sims: chunks lost, heartbeat p99", "none lost, p99 < 250 ms"),
  LAUNCH_64("64-sim run to all running, against 64 bare JVM starts", "<= 3x"),
  POSTPROCESS_MEMORY("cascade postprocess on a 198 MB raw trace: peak RSS", "< 256 MB"),
  POSTPROCESS_SPEED("cascade postprocess against Accel-Sim's C++ tool (-O3)", ">= 2x faster"),
  STATS_SPEED("cascade stats --json on a 200 MB log against get_stats.py -k -K", ">= 60x faster"),
  SERVER_MEMORY_1000("server memory with 1,000 sims tracked", "< 512 MB RSS"),
  RUN_GET_512("GET /api/runs/{id} of a 512-sim run", "p50 < 100 ms"),
  RESULTS_512("results of 512 sims x 114 kernels", "< 1 s");

  private final String what;
  private final String goal;

  GoalRow(String what, String goal) {
    this.what = what;
    this.goal = goal;
  }

  String what() {
    return what;
  }

  String goal() {
    return goal;
  }
}
