package dev.cascade.accelsim.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class LinePagesTest {

  private static final int PAGE = LinePages.PAGE_BYTES;

  @Test
  void append_keepsEachWarpsLinesInOrder_acrossPageBoundaries() throws IOException {
    LinePages pages = new LinePages();
    LinePages.Block block = pages.new Block(7, 2);
    byte[][] lines = {
      line(0), line(PAGE - 1), line(PAGE), line(1), line(3 * PAGE + 5), line(PAGE - 2), line(0)
    };
    StringBuilder warp0 = new StringBuilder();
    StringBuilder warp1 = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      // Each line sits inside a larger buffer, as the line reader hands it over.
      byte[] buffer = new byte[lines[i].length + 6];
      System.arraycopy(lines[i], 0, buffer, 3, lines[i].length);
      int warp = i % 2;
      block.append(warp, buffer, 3, 3 + lines[i].length);
      (warp == 0 ? warp0 : warp1)
          .append(new String(lines[i], StandardCharsets.US_ASCII))
          .append('\n');
    }

    assertThat(written(block, 0)).isEqualTo(warp0.toString());
    assertThat(written(block, 1)).isEqualTo(warp1.toString());
    assertThat(block.counts).containsExactly(4, 3);
    assertThat(block.sizes).containsExactly(warp0.length(), warp1.length());
    long pagesNeeded = pagesFor(warp0.length()) + pagesFor(warp1.length());
    assertThat(pages.bytesInUse()).isEqualTo(pagesNeeded * PAGE);
  }

  @Test
  void release_givesEveryPageBack_andTheBlockStartsEmpty() throws IOException {
    LinePages pages = new LinePages();
    LinePages.Block first = pages.new Block(0, 1);
    first.append(0, line(2 * PAGE), 0, 2 * PAGE);
    assertThat(pages.bytesInUse()).isEqualTo(3L * PAGE);

    pages.release(first);

    assertThat(pages.bytesInUse()).isZero();
    assertThat(first.sizes).containsExactly(0);
    assertThat(first.counts).containsExactly(0);
    assertThat(written(first, 0)).isEmpty();
    LinePages.Block second = pages.new Block(1, 1);
    second.append(0, line(10), 0, 10);
    assertThat(written(second, 0))
        .isEqualTo(new String(line(10), StandardCharsets.US_ASCII) + "\n");
    assertThat(pages.bytesInUse()).isEqualTo(PAGE);
  }

  private static long pagesFor(long bytes) {
    return (bytes + PAGE - 1) / PAGE;
  }

  private static String written(LinePages.Block block, int warp) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteSink sink = new ByteSink(out, 1000);
    block.writeWarp(warp, sink);
    sink.flush();
    return out.toString(StandardCharsets.US_ASCII);
  }

  /** A line of {@code length} bytes that differs from position to position. */
  private static byte[] line(int length) {
    byte[] line = new byte[length];
    for (int i = 0; i < length; i++) {
      line[i] = (byte) ('a' + (i * 7 + length) % 26);
    }
    return line;
  }
}
