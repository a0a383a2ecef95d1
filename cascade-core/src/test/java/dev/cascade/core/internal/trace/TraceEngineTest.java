package dev.cascade.core.internal.trace;

import static dev.cascade.core.internal.trace.TestTraces.append;
import static dev.cascade.core.internal.trace.TestTraces.writeProcessedTrace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.trace.TraceProcessor.Facts;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceEngineTest {

  private static final Duration QUIET = Duration.ofMillis(200);
  private static final Duration RESCAN = Duration.ofMillis(100);
  private static final Duration PATIENCE = Duration.ofSeconds(10);
  private static final String DONE = "{\"status\": \"done\"}";
  private static final Facts ONE_KERNEL =
      new Facts(
          1, List.of(new TraceKernel(1, "kernel-1.traceg", "k", "1,1,1", "32,1,1", null)), false);

  @TempDir Path dataDir;
  private Database database;
  private final List<TraceEngine> engines = new ArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
  }

  @AfterEach
  void close() {
    release.countDown();
    engines.forEach(TraceEngine::close);
    database.close();
  }

  private TraceEngine start(TraceProcessor processor) {
    TraceEngine engine =
        new TraceEngine(
            TestTraces.tracesFolder(dataDir),
            database,
            Clock.systemUTC(),
            QUIET,
            RESCAN,
            processor);
    engines.add(engine);
    engine.start();
    return engine;
  }

  private Path trace(String id) {
    return TestTraces.tracesFolder(dataDir).resolve(id);
  }

  private static TraceState state(TraceEngine engine, String id) {
    return engine.find(id).map(Trace::state).orElse(null);
  }

  private void awaitState(TraceEngine engine, String id, TraceState state) {
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(state(engine, id)).isEqualTo(state));
  }

  @Test
  void processing_neverRunsTwiceAtOnceForOneTrace() {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    AtomicInteger runs = new AtomicInteger();
    TraceEngine engine =
        start(
            folder -> {
              runs.incrementAndGet();
              mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
              try {
                release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                running.decrementAndGet();
              }
              return ONE_KERNEL;
            });
    writeProcessedTrace(trace("t"), DONE, 1);
    awaitState(engine, "t", TraceState.PROCESSING);

    // Files keep changing and rescans keep coming while it processes.
    for (int i = 0; i < 20; i++) {
      append(trace("t").resolve("traces/notes.txt"), "more\n");
      engine.rescan();
    }
    release.countDown();

    awaitState(engine, "t", TraceState.READY);
    engine.rescan();
    assertThat(mostAtOnce.get()).isEqualTo(1);
    assertThat(runs.get()).isEqualTo(1);
    assertThat(engine.find("t").orElseThrow().kernelCount()).isEqualTo(1);
  }

  @Test
  void longProcessing_doesNotHoldUpOtherTraces() {
    TraceEngine engine =
        start(
            folder -> {
              if (folder.getFileName().toString().equals("slow")) {
                try {
                  release.await(PATIENCE.toMillis() * 2, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return ONE_KERNEL;
            });
    writeProcessedTrace(trace("slow"), DONE, 1);
    awaitState(engine, "slow", TraceState.PROCESSING);

    writeProcessedTrace(trace("fast"), DONE, 1);
    writeProcessedTrace(trace("third"), "{\"status\": \"running\"}", 1);

    awaitState(engine, "fast", TraceState.READY);
    awaitState(engine, "third", TraceState.UPLOADING);
    assertThat(state(engine, "slow")).isEqualTo(TraceState.PROCESSING);
    release.countDown();
    awaitState(engine, "slow", TraceState.READY);
  }

  @Test
  void processingInterruptedByClose_isDoneAgainAtTheNextStart() {
    CountDownLatch started = new CountDownLatch(1);
    TraceEngine first =
        start(
            folder -> {
              started.countDown();
              try {
                new CountDownLatch(1).await(); // until close interrupts it
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return ONE_KERNEL;
            });
    writeProcessedTrace(trace("t"), DONE, 1);
    await().atMost(PATIENCE).until(() -> started.getCount() == 0);

    first.close();
    assertThat(state(first, "t")).isEqualTo(TraceState.PROCESSING);

    TraceEngine second = start(folder -> ONE_KERNEL);
    awaitState(second, "t", TraceState.READY);
  }

  @Test
  void processorThatBreaksUnexpectedly_failsTheTraceWithTheError() {
    TraceEngine engine =
        start(
            folder -> {
              throw new IllegalStateException("disk on fire");
            });
    writeProcessedTrace(trace("t"), DONE, 1);

    awaitState(engine, "t", TraceState.FAILED);

    assertThat(engine.find("t").orElseThrow().reason())
        .contains("processing failed unexpectedly")
        .contains("disk on fire");
  }

  @Test
  void processorThatSaysWhy_failsTheTraceWithThatReason() {
    TraceEngine engine =
        start(
            folder -> {
              throw new TraceProcessor.TraceProcessingException("traces/kernel-1.traceg:7: bad");
            });
    writeProcessedTrace(trace("t"), DONE, 1);

    awaitState(engine, "t", TraceState.FAILED);

    assertThat(engine.find("t").orElseThrow().reason()).isEqualTo("traces/kernel-1.traceg:7: bad");
  }

  @Test
  void listeners_getEveryStateChangeInOrder_evenWhenOneOfThemFails() {
    Map<String, List<TraceState>> seen = new ConcurrentHashMap<>();
    TraceEngine engine = start(folder -> ONE_KERNEL);
    engine.addListener(
        trace -> {
          throw new IllegalStateException("a broken listener");
        });
    engine.addListener(
        trace -> {
          seen.computeIfAbsent(trace.id(), id -> new CopyOnWriteArrayList<>()).add(trace.state());
        });

    writeProcessedTrace(trace("a"), DONE, 1);
    writeProcessedTrace(trace("b"), DONE, 1);

    awaitState(engine, "a", TraceState.READY);
    awaitState(engine, "b", TraceState.READY);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(seen)
                    .containsEntry(
                        "a", List.of(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.READY))
                    .containsEntry(
                        "b",
                        List.of(TraceState.UPLOADING, TraceState.PROCESSING, TraceState.READY)));
  }

  @Test
  void processedTrace_withoutKernelsList_failsSayingSo() {
    TraceEngine engine = start(folder -> ONE_KERNEL);
    TestTraces.write(trace("t").resolve("metadata.json"), DONE);

    awaitState(engine, "t", TraceState.FAILED);

    assertThat(engine.find("t").orElseThrow().reason()).contains("traces/kernelslist.g is missing");
  }

  @Test
  void aFolderNamedMetadataJson_failsTheTraceWithAReasonInsteadOfUploadingForever() {
    TraceEngine engine = start(folder -> ONE_KERNEL);
    // As an S3 client makes it: an object under the key metadata.json/..., beside the trace.
    TestTraces.write(trace("t").resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    TestTraces.write(trace("t").resolve("metadata.json/part"), "{}");

    awaitState(engine, "t", TraceState.FAILED);

    assertThat(engine.find("t").orElseThrow().reason()).contains("metadata.json is a folder");
  }

  @Test
  void aTraceGpuArchThatIsNoArchitecture_failsTheTraceNamingFieldAndValue() {
    TraceEngine engine = start(folder -> ONE_KERNEL);
    TestTraces.write(trace("t").resolve("metadata.json"), "{\"trace_gpu_arch\": \"../../etc\"}");

    awaitState(engine, "t", TraceState.FAILED);

    assertThat(engine.find("t").orElseThrow().reason())
        .contains("trace_gpu_arch")
        .contains("\"../../etc\"");
  }
}
