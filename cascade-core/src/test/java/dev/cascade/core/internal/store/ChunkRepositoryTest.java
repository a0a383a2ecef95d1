package dev.cascade.core.internal.store;

import static dev.cascade.core.internal.store.StoreFixtures.T0;
import static dev.cascade.core.internal.store.StoreFixtures.newRun;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ChunkRepositoryTest {

  @TempDir Path dataDir;

  private final StoreFixtures.MutableClock clock = new StoreFixtures.MutableClock(T0);
  private Database database;
  private ChunkRepository chunks;
  private String simId;
  private String otherSimId;

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
    chunks = new ChunkRepository(database, clock);
    Run run = newRun(new Ids(clock), T0, "demo", new RunEntry("SM90_H100", 2));
    new RunRepository(database).insert(run);
    simId = run.sims().get(0).id();
    otherSimId = run.sims().get(1).id();
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void insert_storesADuplicateSeqOnceAndTheFirstCopyWins() {
    assertThat(chunks.insert(chunk(simId, 0, "first\n"))).isTrue();
    assertThat(chunks.insert(chunk(simId, 0, "second\n"))).isFalse();

    assertThat(log(simId)).isEqualTo("first\n");
    assertThat(chunks.contiguousCount(simId)).isEqualTo(1);
  }

  @Test
  void insert_keepsSimsApart() {
    chunks.insert(chunk(simId, 0, "mine"));
    chunks.insert(chunk(otherSimId, 0, "theirs"));

    assertThat(log(simId)).isEqualTo("mine");
    assertThat(log(otherSimId)).isEqualTo("theirs");
  }

  @Test
  void insert_outOfOrder_countsOnlyTheContiguousPrefixUntilTheGapFills() {
    chunks.insert(chunk(simId, 2, "c"));
    assertThat(chunks.contiguousCount(simId)).isZero();

    chunks.insert(chunk(simId, 0, "a"));
    chunks.insert(chunk(simId, 3, "d"));
    assertThat(chunks.contiguousCount(simId)).isEqualTo(1);

    chunks.insert(chunk(simId, 1, "b"));
    assertThat(chunks.contiguousCount(simId)).isEqualTo(4);
    assertThat(log(simId)).isEqualTo("abcd");
  }

  @Test
  void contiguousCount_isZeroWithoutChunks() {
    assertThat(chunks.contiguousCount(simId)).isZero();
  }

  @Test
  void insert_ofAnUnknownSim_isNotFound() {
    assertThatThrownBy(() -> chunks.insert(chunk("s_gone", 0, "x")))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"s_gone\"")
        .extracting(e -> ((CascadeException) e).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void insert_keepsAnEmptyChunk() {
    assertThat(chunks.insert(new Chunk(simId, 0, new byte[0]))).isTrue();

    assertThat(chunks.contiguousCount(simId)).isEqualTo(1);
    assertThat(chunks.totalBytes(simId)).isZero();
  }

  @Test
  void chunk_refusesANegativeSeq() {
    assertThatThrownBy(() -> chunk(simId, -1, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got -1");
  }

  @Test
  void insertAll_saysForEachChunkWhetherItWasNew() {
    chunks.insert(chunk(simId, 1, "b"));

    List<Boolean> inserted =
        chunks.insertAll(
            List.of(
                chunk(simId, 0, "a"),
                chunk(simId, 1, "B"),
                chunk(otherSimId, 0, "x"),
                chunk(simId, 0, "A")));

    assertThat(inserted).containsExactly(true, false, true, false);
    assertThat(log(simId)).isEqualTo("ab");
  }

  @Test
  void insertAll_withAnUnknownSim_storesNothing() {
    List<Chunk> batch = List.of(chunk(simId, 0, "a"), chunk("s_gone", 0, "x"));

    assertThatThrownBy(() -> chunks.insertAll(batch)).isInstanceOf(CascadeException.class);

    assertThat(chunks.contiguousCount(simId)).isZero();
  }

  @Test
  void insertAll_ofNothing_isNothing() {
    assertThat(chunks.insertAll(List.of())).isEmpty();
  }

  @Test
  void missing_listsTheSeqsBelowNNotStored() {
    for (long seq : new long[] {0, 2, 3, 6}) {
      chunks.insert(chunk(simId, seq, "x"));
    }

    assertThat(chunks.missing(simId, 8, 100)).containsExactly(1L, 4L, 5L, 7L);
    assertThat(chunks.missing(simId, 4, 100)).containsExactly(1L);
    assertThat(chunks.missing(simId, 0, 100)).isEmpty();
    assertThat(chunks.missing(otherSimId, 3, 100)).containsExactly(0L, 1L, 2L);
  }

  @Test
  void missing_isEmptyWhenEverythingArrived() {
    for (long seq = 0; seq < 5; seq++) {
      chunks.insert(chunk(simId, seq, "x"));
    }

    assertThat(chunks.missing(simId, 5, 100)).isEmpty();
  }

  @Test
  void missing_stopsAtTheLimit() {
    chunks.insert(chunk(simId, 3, "x"));

    assertThat(chunks.missing(simId, 1_000_000_000L, 5)).containsExactly(0L, 1L, 2L, 4L, 5L);
  }

  @Test
  void missing_refusesBadArguments() {
    assertThatThrownBy(() -> chunks.missing(simId, -1, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got -1");
    assertThatThrownBy(() -> chunks.missing(simId, 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0");
  }

  @Test
  void stream_readsChunksInSeqOrderWhateverTheArrivalOrder() {
    List<Long> seqs = new ArrayList<>(LongStream.range(0, 1_000).boxed().toList());
    Collections.shuffle(seqs, new Random(42));
    chunks.insertAll(seqs.stream().map(seq -> chunk(simId, seq, "line " + seq + "\n")).toList());

    try (Stream<Chunk> stream = chunks.stream(simId, 0)) {
      assertThat(stream.map(Chunk::seq).toList())
          .containsExactlyElementsOf(LongStream.range(0, 1_000).boxed().toList());
    }
    StringBuilder expected = new StringBuilder();
    for (int seq = 0; seq < 1_000; seq++) {
      expected.append("line ").append(seq).append('\n');
    }
    assertThat(log(simId)).isEqualTo(expected.toString());
  }

  @Test
  void stream_fromASeq_startsThere() {
    for (long seq = 0; seq < 5; seq++) {
      chunks.insert(chunk(simId, seq, Long.toString(seq)));
    }

    try (Stream<Chunk> stream = chunks.stream(simId, 3)) {
      assertThat(stream.map(Chunk::seq)).containsExactly(3L, 4L);
    }
  }

  @Test
  void stream_pagesThroughALogLargerThanAPage() {
    // 12 chunks of 1 MiB: more bytes than one page holds, so the reader must come back for more.
    byte[] mebibyte = new byte[1024 * 1024];
    for (long seq = 0; seq < 12; seq++) {
      Arrays.fill(mebibyte, (byte) ('a' + seq));
      chunks.insert(new Chunk(simId, seq, mebibyte.clone()));
    }

    try (Stream<Chunk> stream = chunks.stream(simId, 0)) {
      assertThat(stream.map(chunk -> (char) chunk.bytes()[0]))
          .containsExactly('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l');
    }
    assertThat(chunks.totalBytes(simId)).isEqualTo(12L * 1024 * 1024);
  }

  @Test
  void stream_skipsSeqsNotStoredYet() {
    chunks.insert(chunk(simId, 0, "a"));
    chunks.insert(chunk(simId, 2, "c"));

    assertThat(log(simId)).isEqualTo("ac");
  }

  @Test
  void openLog_ofASimWithoutChunks_isEmpty() {
    assertThat(log(simId)).isEmpty();
  }

  @Test
  void totalBytes_sumsTheSimsChunks() {
    chunks.insert(chunk(simId, 0, "12345"));
    chunks.insert(chunk(simId, 1, "678"));
    chunks.insert(chunk(otherSimId, 0, "elsewhere"));

    assertThat(chunks.totalBytes(simId)).isEqualTo(8);
    assertThat(chunks.totalBytes("s_none")).isZero();
  }

  private static Chunk chunk(String simId, long seq, String text) {
    return new Chunk(simId, seq, text.getBytes(UTF_8));
  }

  private String log(String sim) {
    try (InputStream in = chunks.openLog(sim)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toString(UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
