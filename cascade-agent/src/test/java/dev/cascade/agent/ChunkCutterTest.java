package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ChunkCutterTest {

  private final List<String> chunks = new ArrayList<>();

  private void emit(byte[] chunk) {
    chunks.add(new String(chunk, StandardCharsets.UTF_8));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void fullBuffer_isCutAfterItsLastNewline() {
    ChunkCutter cutter = new ChunkCutter(10, Long.MAX_VALUE);
    byte[] input = bytes("abc\ndefg\nhijkl\n");

    cutter.write(input, 0, input.length, 0, this::emit);
    cutter.flush(this::emit);

    assertThat(chunks).containsExactly("abc\ndefg\n", "hijkl\n");
  }

  @Test
  void lineLongerThanAChunk_isSplit() {
    ChunkCutter cutter = new ChunkCutter(4, Long.MAX_VALUE);
    byte[] input = bytes("abcdefghij\n");

    cutter.write(input, 0, input.length, 0, this::emit);
    cutter.flush(this::emit);

    assertThat(chunks).containsExactly("abcd", "efgh", "ij\n");
    assertThat(String.join("", chunks)).isEqualTo("abcdefghij\n");
  }

  @Test
  void agedBytes_areCutAtTheirLastNewlineAndAPartialLineWaitsOneMorePeriod() {
    ChunkCutter cutter = new ChunkCutter(1024, 100);
    byte[] input = bytes("one\ntwo\nthr");

    cutter.write(input, 0, input.length, 0, this::emit);
    cutter.tick(99, this::emit);
    assertThat(chunks).isEmpty();
    cutter.tick(100, this::emit);
    assertThat(chunks).containsExactly("one\ntwo\n");
    cutter.tick(150, this::emit);
    assertThat(chunks).hasSize(1);
    cutter.tick(200, this::emit);

    assertThat(chunks).containsExactly("one\ntwo\n", "thr");
    assertThat(cutter.held()).isZero();
  }

  @Test
  void writesInPieces_keepEveryByteInOrder() {
    ChunkCutter cutter = new ChunkCutter(7, Long.MAX_VALUE);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      String piece = i % 5 == 0 ? "line " + i + "\n" : "x" + i;
      expected.append(piece);
      byte[] b = bytes(piece);
      cutter.write(b, 0, b.length, i, this::emit);
    }
    cutter.flush(this::emit);

    assertThat(String.join("", chunks)).isEqualTo(expected.toString());
    assertThat(chunks).allSatisfy(c -> assertThat(c.length()).isBetween(1, 7));
  }
}
