package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceRepositoryTest {

  @TempDir Path dir;
  private Database database;
  private TraceRepository repository;

  @BeforeEach
  void open() {
    database = Database.open(dir.resolve("cascade.db"));
    repository = new TraceRepository(database);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private static Trace trace(String id, TraceState state, Instant created) {
    return new Trace(
        id,
        state,
        state == TraceState.FAILED ? "traces/kernelslist.g:3: bad line" : null,
        "sm_80",
        "SM80_A100",
        "facebook/opt-125m",
        List.of("model.decoder.layers.10.self_attn", "layer \"quoted\""),
        2,
        List.of(
            new TraceKernel(1, "kernel-1.traceg.xz", "gemm", "1,1,1", "256,1,1", 326L),
            new TraceKernel(2, "kernel-2.traceg.xz", null, null, null, null)),
        12_345,
        true,
        created,
        created.plusMillis(1500));
  }

  @Test
  void save_thenFind_returnsEveryFact() {
    Trace trace = trace("t1", TraceState.READY, Instant.parse("2026-11-07T12:00:00Z"));

    repository.save(trace);

    assertThat(repository.find("t1")).contains(trace);
    assertThat(repository.find("t2")).isEmpty();
  }

  @Test
  void save_again_replacesTheRow() {
    Instant created = Instant.parse("2026-11-07T12:00:00.123456789Z");
    repository.save(trace("t1", TraceState.UPLOADING, created));
    Trace failed = trace("t1", TraceState.FAILED, created);

    repository.save(failed);

    assertThat(repository.list()).containsExactly(failed);
  }

  @Test
  void list_isOldestFirst_andDeleteRemoves() {
    Trace later = trace("a-later", TraceState.READY, Instant.parse("2026-11-07T12:00:01Z"));
    Trace earlier = trace("z-earlier", TraceState.READY, Instant.parse("2026-11-07T12:00:00.5Z"));
    repository.save(later);
    repository.save(earlier);

    assertThat(repository.list()).containsExactly(earlier, later);

    repository.delete("z-earlier");
    assertThat(repository.list()).containsExactly(later);
  }
}
