package dev.cascade.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server whose memory the read benchmark measures, in a JVM of its own started with the options
 * {@code cascade serve} uses, so its RSS is the server's alone: a Cascade over a fresh data dir
 * with {@code args[1]} sims created (the launcher starts nothing). It writes each sim's id and
 * token to {@code args[2]}, prints {@code ready <url> <trace folder> <config>} (tab-separated) and
 * serves until its standard input closes.
 */
final class ReadServer {

  private ReadServer() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Path dataDir = Path.of(args[0]);
    int sims = Integer.parseInt(args[1]);
    Path tokens = Path.of(args[2]);
    GatedLauncher launcher = new GatedLauncher();
    try (EmbeddedCascade app =
        EmbeddedCascade.start(dataDir, launcher, List.of("true"), Map.of())) {
      System.out.println("started " + app.url());
      List<SimRef> refs = IngestSims.create(app, launcher, app.simTokens(), sims);
      List<String> lines = new ArrayList<>();
      refs.forEach(ref -> lines.add(ref.id() + "\t" + ref.token()));
      Files.write(tokens, lines, StandardCharsets.UTF_8);
      System.out.println(
          "ready " + app.url() + "\t" + app.traceFolder() + "\t" + app.configs().getFirst());
      System.out.flush();
      // Until the benchmark closes our standard input (or dies).
      while (System.in.read() >= 0) {
        // nothing to read
      }
    }
  }
}
