package dev.cascade.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's load generator: {@code connections} workers, each sending its next request as soon as
 * the previous one is answered (closed loop), on one asynchronous {@link HttpClient} (HTTP/1.1, so
 * at most {@code connections} connections). Used when {@code wrk} is not installed; it runs in the
 * benchmark's JVM, beside the server, so it takes CPU from it.
 */
final class JavaLoad {

  private JavaLoad() {}

  static LoadResult run(LoadTarget target, int connections, Duration duration)
      throws InterruptedException {
    int sims = target.sims().size();
    if (target.kind() == LoadTarget.Kind.CHUNK && sims < connections) {
      throw new IllegalArgumentException("a chunk load needs at least one sim per connection");
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(
            2, runnable -> Thread.ofPlatform().daemon().name("java-load").unstarted(runnable));
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(executor)
            .build();
    try {
      long start = System.nanoTime();
      long deadline = start + duration.toNanos();
      CountDownLatch done = new CountDownLatch(connections);
      Worker[] workers = new Worker[connections];
      for (int i = 0; i < connections; i++) {
        workers[i] = new Worker(i, connections, target, client, deadline, done);
      }
      for (Worker worker : workers) {
        worker.next();
      }
      if (!done.await(duration.toSeconds() + 60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the load did not end within a minute of its deadline");
      }
      long end = 0;
      long ok = 0;
      long non2xx = 0;
      long errors = 0;
      Latencies latencies = new Latencies();
      for (Worker worker : workers) {
        end = Math.max(end, worker.lastAnswer);
        ok += worker.ok;
        non2xx += worker.non2xx;
        errors += worker.errors;
        latencies.addAll(worker.latencies);
      }
      return new LoadResult(
          "java",
          ok,
          non2xx,
          errors,
          (Math.max(end, deadline) - start) / 1e9,
          latencies.millis(0.50),
          latencies.millis(0.99));
    } finally {
      client.shutdownNow();
      executor.shutdownNow();
    }
  }

  /** One connection's worth of requests; its callbacks run one after the other. */
  private static final class Worker {
    private final LoadTarget target;
    private final HttpClient client;
    private final long deadline;
    private final CountDownLatch done;
    private final int[] sims;
    private final long[] seqs;
    private final Latencies latencies = new Latencies();
    private long sent;
    private long ok;
    private long non2xx;
    private long errors;
    private long lastAnswer;

    Worker(
        int index,
        int connections,
        LoadTarget target,
        HttpClient client,
        long deadline,
        CountDownLatch done) {
      this.target = target;
      this.client = client;
      this.deadline = deadline;
      this.done = done;
      int total = target.sims().size();
      // Worker i sends for sims i, i + connections, ...: a sim's chunks stay in order.
      int mine = target.kind() == LoadTarget.Kind.CHUNK ? total / connections : total;
      this.sims = new int[Math.max(1, mine)];
      for (int k = 0; k < sims.length; k++) {
        sims[k] =
            target.kind() == LoadTarget.Kind.CHUNK ? index + k * connections : (index + k) % total;
      }
      this.seqs = new long[sims.length];
    }

    void next() {
      if (System.nanoTime() >= deadline) {
        done.countDown();
        return;
      }
      int slot = (int) (sent++ % sims.length);
      SimRef sim = target.sims().get(sims[slot]);
      long seq = seqs[slot];
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(target.baseUrl() + target.path(sim, seq)))
              .timeout(Duration.ofSeconds(30))
              .header("Authorization", sim.authorization())
              .header("Content-Type", target.contentType())
              .method(target.method(), HttpRequest.BodyPublishers.ofByteArray(target.body(seq)))
              .build();
      long started = System.nanoTime();
      client
          .sendAsync(request, HttpResponse.BodyHandlers.discarding())
          .whenComplete(
              (response, error) -> {
                long now = System.nanoTime();
                lastAnswer = now;
                if (error != null) {
                  errors++;
                } else if (response.statusCode() / 100 == 2) {
                  ok++;
                  seqs[slot]++;
                  latencies.add(now - started);
                } else {
                  non2xx++;
                }
                next();
              });
    }
  }
}
