package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The memory a {@link KernelGrouper} holds instruction lines in: fixed-size pages taken from a pool
 * and given back, all at once, when the grouper spills. Pages are allocated only while the pool is
 * empty, so after the first spill the grouper allocates nothing and the heap holds about the
 * budget, whatever the trace's size; and a warp's lines never get copied to grow an array.
 */
final class LinePages {

  /** Small, so that a window of many resident warps, each with a partial page, stays cheap. */
  static final int PAGE_BYTES = 4096;

  private final List<byte[]> free = new ArrayList<>();
  private long pagesInUse;

  /** Bytes in the pages handed out and not yet given back. */
  long bytesInUse() {
    return pagesInUse * PAGE_BYTES;
  }

  private byte[] take() {
    pagesInUse++;
    return free.isEmpty() ? new byte[PAGE_BYTES] : free.removeLast();
  }

  /** Gives back every page of {@code block}; the block is empty afterwards. */
  void release(Block block) {
    for (int w = 0; w < block.pages.length; w++) {
      byte[][] pages = block.pages[w];
      for (int p = 0; p < block.pageCounts[w]; p++) {
        free.add(pages[p]);
        pages[p] = null;
      }
      pagesInUse -= block.pageCounts[w];
      block.pageCounts[w] = 0;
      block.sizes[w] = 0;
      block.counts[w] = 0;
    }
  }

  /** One thread block's buffered lines, each warp's as {@code rest-of-line '\n'} bytes. */
  final class Block {
    final int id;
    final long[] sizes;
    final long[] counts;
    private final byte[][][] pages;
    private final int[] pageCounts;

    Block(int id, int warps) {
      this.id = id;
      this.sizes = new long[warps];
      this.counts = new long[warps];
      this.pages = new byte[warps][][];
      this.pageCounts = new int[warps];
    }

    /** Appends {@code line[start, end)} and a newline to warp {@code warp}. */
    void append(int warp, byte[] line, int start, int end) {
      int offset = (int) (sizes[warp] % PAGE_BYTES);
      int p = start;
      while (p < end) {
        if (offset == 0) {
          addPage(warp);
        }
        byte[] page = pages[warp][pageCounts[warp] - 1];
        int chunk = Math.min(end - p, PAGE_BYTES - offset);
        System.arraycopy(line, p, page, offset, chunk);
        p += chunk;
        offset = (offset + chunk) % PAGE_BYTES;
      }
      if (offset == 0) {
        addPage(warp);
      }
      pages[warp][pageCounts[warp] - 1][offset] = '\n';
      sizes[warp] += end - start + 1;
      counts[warp]++;
    }

    /** Writes warp {@code warp}'s bytes, in the order they were appended. */
    void writeWarp(int warp, ByteSink out) throws IOException {
      long left = sizes[warp];
      for (int p = 0; left > 0; p++) {
        int length = (int) Math.min(left, PAGE_BYTES);
        out.write(pages[warp][p], 0, length);
        left -= length;
      }
    }

    private void addPage(int warp) {
      byte[][] list = pages[warp];
      int count = pageCounts[warp];
      if (list == null) {
        list = new byte[4][];
        pages[warp] = list;
      } else if (count == list.length) {
        list = Arrays.copyOf(list, count * 2);
        pages[warp] = list;
      }
      list[count] = take();
      pageCounts[warp] = count + 1;
    }
  }
}
