package dev.cascade.accelsim.trace;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a post-processed kernel's {@code .traceg} text as Accel-Sim 2.0's {@code .tracez} ({@link
 * Tracez} has the layout), as its post-processor does by default: a dictionary trained on every 8th
 * line of each warp (at most 1 MiB of them, blocks and warps in order), frames of up to 2048 lines
 * of one warp, never splitting a {@code REPLAY_START}..{@code REPLAY_END} region, each compressed
 * at zstd level 3 with the dictionary (without one when training fails, as upstream). The
 * compressed bytes differ from upstream's (another zstd build), but {@link Tracez#openAsText} gives
 * back the text exactly. A block without cluster lines (a 4-id trace) is written with cluster ids
 * 0.
 *
 * <p>The text is read twice (samples, then frames); memory holds one warp's frames at a time.
 */
final class TracezWriter {

  static final int SUBCHUNK_LINES = 2048;
  private static final int SAMPLE_BYTES = 1 << 20;
  private static final int DICTIONARY_BYTES = 64 << 10;
  private static final int LEVEL = 3;

  private TracezWriter() {}

  /**
   * Reads the {@code .traceg} text in {@code text} and writes it as {@code .tracez} to {@code out}.
   */
  static void write(Path text, OutputStream out) throws IOException {
    byte[] dictionary = train(samples(text));
    Counting counting = new Counting(out);
    List<Tracez.Block> index = new ArrayList<>();
    List<List<Integer>> frameLines = new ArrayList<>();
    try (InputStream in = Files.newInputStream(text);
        ZstdCompressCtx zstd = new ZstdCompressCtx()) {
      zstd.setLevel(LEVEL);
      if (dictionary.length > 0) {
        zstd.loadDict(dictionary);
      }
      TextBlocks blocks = new TextBlocks(in, text);
      counting.write(blocks.header());
      counting.write(0);
      counting.write(u32(dictionary.length));
      counting.write(u32(SUBCHUNK_LINES));
      counting.write(dictionary);
      while (blocks.nextBlock()) {
        List<Tracez.Warp> warps = new ArrayList<>();
        while (blocks.nextWarp()) {
          List<byte[]> frames = new ArrayList<>();
          List<Integer> lines = new ArrayList<>();
          ByteArrayOutputStream chunk = new ByteArrayOutputStream();
          int inChunk = 0;
          int replayDepth = 0;
          while (blocks.nextLine()) {
            if (inChunk > 0) {
              chunk.write('\n');
            }
            chunk.write(blocks.buffer(), blocks.start(), blocks.end() - blocks.start());
            inChunk++;
            String opcode = opcode(blocks.buffer(), blocks.start(), blocks.end());
            if (opcode.equals("REPLAY_START")) {
              replayDepth++;
            } else if (opcode.equals("REPLAY_END")) {
              replayDepth--;
            }
            if (inChunk >= SUBCHUNK_LINES && replayDepth <= 0) {
              frames.add(zstd.compress(chunk.toByteArray()));
              lines.add(inChunk);
              chunk.reset();
              inChunk = 0;
              replayDepth = 0;
            }
          }
          if (inChunk > 0) {
            frames.add(zstd.compress(chunk.toByteArray()));
            lines.add(inChunk);
          }
          long offset = counting.written();
          counting.write(u32(blocks.warpCount()));
          counting.write(u32(frames.size()));
          for (byte[] frame : frames) {
            counting.write(u32(frame.length));
            counting.write(frame);
          }
          warps.add(
              new Tracez.Warp(
                  blocks.warpCount(),
                  offset,
                  lines.stream().mapToInt(Integer::intValue).toArray()));
        }
        index.add(new Tracez.Block(blocks.ids(), warps));
      }
    }
    long indexOffset = counting.written();
    counting.write(u32(index.size()));
    for (Tracez.Block block : index) {
      for (long id : block.ids()) {
        counting.write(u32(id));
      }
      counting.write(u32(block.warps().size()));
      for (Tracez.Warp warp : block.warps()) {
        counting.write(u32(warp.instructions()));
        counting.write(u32(warp.frameLines().length));
        counting.write(
            ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(warp.offset()).array());
        for (int lines : warp.frameLines()) {
          counting.write(u32(lines));
        }
      }
    }
    counting.write(
        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(indexOffset).array());
    counting.flush();
  }

  /** Every 8th line of each warp, blocks and warps in order, until 1 MiB of them, as upstream. */
  private static List<byte[]> samples(Path text) throws IOException {
    List<byte[]> samples = new ArrayList<>();
    long total = 0;
    try (InputStream in = Files.newInputStream(text)) {
      TextBlocks blocks = new TextBlocks(in, text);
      blocks.header();
      while (total < SAMPLE_BYTES && blocks.nextBlock()) {
        while (blocks.nextWarp()) {
          long k = 0;
          while (blocks.nextLine()) {
            if (k++ % 8 == 0 && total < SAMPLE_BYTES) {
              samples.add(Arrays.copyOfRange(blocks.buffer(), blocks.start(), blocks.end()));
              total += blocks.end() - blocks.start();
            }
          }
        }
      }
    }
    return samples;
  }

  private static byte[] train(List<byte[]> samples) {
    if (samples.isEmpty()) {
      return new byte[0];
    }
    byte[] dictionary = new byte[DICTIONARY_BYTES];
    try {
      long size = Zstd.trainFromBuffer(samples.toArray(byte[][]::new), dictionary);
      if (Zstd.isError(size) || size <= 0) {
        return new byte[0];
      }
      return Arrays.copyOf(dictionary, (int) size);
    } catch (RuntimeException e) {
      return new byte[0]; // too few samples to train on: frames without a dictionary, as upstream
    }
  }

  /** The opcode as upstream finds it for replay regions: after PC, mask and the destinations. */
  static String opcode(byte[] b, int start, int end) {
    int p = start;
    for (int i = 0; i < 2; i++) {
      p = RawTraceScanner.skipToken(b, RawTraceScanner.skipSpace(b, p, end), end);
    }
    p = RawTraceScanner.skipSpace(b, p, end);
    int digits = p;
    long count = 0;
    while (p < end && b[p] >= '0' && b[p] <= '9' && count < 1_000_000) {
      count = count * 10 + (b[p] - '0');
      p++;
    }
    if (p == digits) {
      return "";
    }
    for (long i = 0; i < count; i++) {
      p = RawTraceScanner.skipToken(b, RawTraceScanner.skipSpace(b, p, end), end);
    }
    p = RawTraceScanner.skipSpace(b, p, end);
    int opcodeStart = p;
    p = RawTraceScanner.skipToken(b, p, end);
    return new String(b, opcodeStart, p - opcodeStart, StandardCharsets.US_ASCII);
  }

  private static byte[] u32(long value) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) value).array();
  }

  /** Counts the bytes written, for the offsets the index holds. */
  private static final class Counting {
    private final OutputStream out;
    private long written;

    Counting(OutputStream out) {
      this.out = out;
    }

    void write(byte[] bytes) throws IOException {
      out.write(bytes);
      written += bytes.length;
    }

    void write(int b) throws IOException {
      out.write(b);
      written++;
    }

    long written() {
      return written;
    }

    void flush() throws IOException {
      out.flush();
    }
  }

  /**
   * Pulls a {@code .traceg} text apart: its header (the lines before the first block), then its
   * blocks' ids, warps and lines, as {@link KernelGrouper} and upstream write them.
   */
  private static final class TextBlocks {
    private final LineReader lines;
    private final Path source;
    private boolean pendingBegin;
    private long[] ids;
    private long warpCount;
    private long linesLeft;

    TextBlocks(InputStream in, Path source) {
      this.lines = new LineReader(in, source, 1 << 16, RawTraceScanner.MAX_LINE_LENGTH);
      this.source = source;
    }

    /** The header's bytes, each line with its newline; stops before the first block. */
    byte[] header() throws IOException {
      ByteArrayOutputStream header = new ByteArrayOutputStream();
      boolean heldEmpty = false;
      while (lines.next()) {
        if (isLine("#BEGIN_TB")) {
          pendingBegin = true;
          return header.toByteArray();
        }
        if (heldEmpty) {
          header.write('\n');
          heldEmpty = false;
        }
        if (lines.start() == lines.end()) {
          heldEmpty = lines.terminated(); // the text after the final newline is no line
          continue;
        }
        header.write(lines.buffer(), lines.start(), lines.end() - lines.start());
        header.write('\n');
      }
      return header.toByteArray();
    }

    boolean nextBlock() throws IOException {
      if (!pendingBegin) {
        while (lines.next()) {
          if (isLine("#BEGIN_TB")) {
            pendingBegin = true;
            break;
          }
        }
        if (!pendingBegin) {
          return false;
        }
      }
      pendingBegin = false;
      ids = new long[10];
      return true;
    }

    /**
     * Moves to the block's next warp, reading the block's id lines on the way; false at its end.
     */
    boolean nextWarp() throws IOException {
      while (linesLeft > 0) {
        nextLine();
      }
      while (lines.next()) {
        String text = lines.end() == lines.start() ? "" : lines.text();
        if (text.equals("#END_TB")) {
          return false;
        } else if (text.startsWith("thread block = ")) {
          triple(text, 0);
        } else if (text.startsWith("cluster id = ")) {
          triple(text, 3);
        } else if (text.startsWith("cluster cta = ")) {
          triple(text, 6);
        } else if (text.startsWith("cluster rank = ")) {
          ids[9] = number(text.substring(text.indexOf('=') + 1).strip());
        } else if (text.startsWith("insts = ")) {
          warpCount = number(text.substring(text.indexOf('=') + 1).strip());
          linesLeft = warpCount;
          return true;
        }
      }
      throw new TraceFormatException(source, lines.lineNumber(), "a block has no '#END_TB' line");
    }

    /** Moves to the warp's next line; false after its last. */
    boolean nextLine() throws IOException {
      if (linesLeft == 0) {
        return false;
      }
      if (!lines.next()) {
        throw new TraceFormatException(
            source, lines.lineNumber(), "a warp ends before its 'insts = " + warpCount + "' lines");
      }
      linesLeft--;
      return true;
    }

    long[] ids() {
      return ids;
    }

    long warpCount() {
      return warpCount;
    }

    byte[] buffer() {
      return lines.buffer();
    }

    int start() {
      return lines.start();
    }

    int end() {
      return lines.end();
    }

    private boolean isLine(String text) {
      int length = lines.end() - lines.start();
      if (length != text.length()) {
        return false;
      }
      for (int i = 0; i < length; i++) {
        if (lines.buffer()[lines.start() + i] != text.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private void triple(String text, int at) {
      String[] parts = text.substring(text.indexOf('=') + 1).strip().split(",");
      for (int i = 0; i < 3 && i < parts.length; i++) {
        ids[at + i] = number(parts[i].strip());
      }
    }

    private long number(String text) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new TraceFormatException(
            source, lines.lineNumber(), "'" + text + "' is not a number in '" + lines.text() + "'");
      }
    }
  }
}
