package dev.cascade.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The server's memory with many sims tracked: a {@link ReadServer} in a JVM of its own (with the
 * JVM options {@code ./cascade serve} adds, {@code bench.read.server.options}), its sims played by
 * a {@link SimSwarm} in this JVM, its {@code VmRSS} and {@code VmHWM} read from {@code
 * /proc/<pid>/status}.
 */
final class ReadMemory {

  /**
   * @param idleKb RSS once started with its sims created, before any reported
   * @param peakKb the highest RSS (VmHWM) after the sims reported
   * @param endKb RSS at the end
   */
  record Result(long idleKb, long peakKb, long endKb, SimSwarm.Result swarm) {}

  private ReadMemory() {}

  static Result measure(Path work, int sims, int seconds, List<String> jvmOptions)
      throws IOException, InterruptedException {
    Path dataDir = work.resolve("memory-data");
    Path tokens = work.resolve("memory-tokens.tsv");
    Files.createDirectories(work);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp",
            System.getProperty("java.class.path"),
            ReadServer.class.getName(),
            dataDir.toString(),
            Integer.toString(sims),
            tokens.toString()));
    Process server =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String[] ready = null;
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("ready ")) {
          ready = line.substring("ready ".length()).strip().split("\t");
          break;
        }
      }
      if (ready == null) {
        throw new IllegalStateException("the memory benchmark's server ended before it was ready");
      }
      List<SimRef> refs = new ArrayList<>();
      for (String line : Files.readAllLines(tokens)) {
        String[] parts = line.split("\t");
        refs.add(new SimRef(parts[0], parts[1]));
      }
      long idle = statusKb(server.pid(), "VmRSS");
      System.out.printf(
          Locale.ROOT,
          "memory: server pid %d with %,d sims created, RSS %.0f MB before any reported%n",
          server.pid(),
          refs.size(),
          idle / 1024.0);
      List<byte[]> bodies = IngestSims.emulatorChunks(Path.of(ready[1]), ready[2], 4096);
      SimSwarm.Result swarm =
          SimSwarm.run(
              ready[0],
              refs,
              bodies,
              Duration.ofSeconds(2),
              Duration.ofSeconds(1),
              Duration.ofSeconds(seconds),
              Duration.ofSeconds(30));
      long peak = statusKb(server.pid(), "VmHWM");
      long end = statusKb(server.pid(), "VmRSS");
      System.out.printf(
          Locale.ROOT,
          "memory: %,d heartbeats and %,d chunks answered in %d s (refused: %s); peak RSS %.0f MB,"
              + " %.0f MB at the end%n",
          swarm.heartbeats(),
          swarm.chunks(),
          seconds,
          swarm.refused(),
          peak / 1024.0,
          end / 1024.0);
      return new Result(idle, peak, end, swarm);
    } finally {
      server.getOutputStream().close();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** A {@code kB} field of {@code /proc/<pid>/status}. */
  static long statusKb(long pid, String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").strip());
      }
    }
    throw new IllegalStateException("/proc/" + pid + "/status has no " + field);
  }
}
