package dev.cascade.accelsim.trace;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Accel-Sim 2.0's {@code .tracez} kernel traces, which its post-processor writes by default:
 * the kernel's header as text ending in a NUL byte, {@code u32 dictionarySize}, {@code u32
 * subchunkInstructions}, a zstd dictionary, each warp's lines as zstd frames of up to
 * subchunkInstructions lines ({@code u32 instructions, u32 frames}, then per frame {@code u32 size}
 * and its bytes), and at the end an index: {@code u32 blocks}, per thread block its 10 ids (thread
 * block, cluster, CTA in cluster, rank), {@code u32 warps} and per warp {@code u32 instructions,
 * u32 frames, u64 offset} and each frame's line count; the last 8 bytes are the index's offset.
 * Numbers are little-endian. (Format as in accel-sim-framework's {@code tracez_format.h} @
 * e1c2b67.)
 *
 * <p>{@link #openAsText} decodes a file into exactly the text the same post-processor writes with
 * {@code --text} (a {@code .traceg}), a warp's frame at a time, so every reader of text traces
 * reads a {@code .tracez} through it and never its compressed bytes. {@link #countInstructions}
 * reads the index only.
 */
public final class Tracez {

  /** The file name suffix Accel-Sim 2.0 gives the format. */
  public static final String SUFFIX = ".tracez";

  /** A frame decompressing to more than this is refused (a warp's 2048 lines are ~100 KB). */
  static final int MAX_FRAME_BYTES = 1 << 30;

  private Tracez() {}

  /** Whether {@code file} is named as a {@code .tracez}. */
  public static boolean isTracez(Path file) {
    return file.getFileName().toString().endsWith(SUFFIX);
  }

  /** One warp of the index. */
  record Warp(long instructions, long offset, int[] frameLines) {}

  /** One thread block of the index: its 10 ids and its warps. */
  record Block(long[] ids, List<Warp> warps) {}

  /** What the start and the end of a file say. */
  record Layout(byte[] header, byte[] dictionary, long subchunkInstructions, List<Block> blocks) {}

  /**
   * The instruction count of a {@code .tracez}: the sum of its index's per-warp counts (the sum of
   * the {@code insts = n} lines of its text).
   *
   * @throws TraceFormatException when the file is not a well-formed {@code .tracez}
   * @throws IOException when it cannot be read
   */
  public static long countInstructions(Path file) throws IOException {
    long total = 0;
    for (Block block : read(file).blocks()) {
      for (Warp warp : block.warps()) {
        total += warp.instructions();
      }
    }
    return total;
  }

  /**
   * The file's content as the {@code .traceg} text upstream's post-processor writes for the same
   * kernel with {@code --text}, decompressed as it is read.
   *
   * @throws TraceFormatException when the file is not a well-formed {@code .tracez} (also from the
   *     stream's reads, for a frame that does not decompress)
   * @throws IOException when it cannot be read
   */
  public static InputStream openAsText(Path file) throws IOException {
    Layout layout = read(file);
    return new TextStream(file, layout);
  }

  static Layout read(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      byte[] header = readHeader(channel, file);
      long at = header.length + 1L;
      ByteBuffer numbers = readAt(channel, at, 8, file);
      long dictionarySize = Integer.toUnsignedLong(numbers.getInt());
      long subchunk = Integer.toUnsignedLong(numbers.getInt());
      if (at + 8 + dictionarySize + 8 > size) {
        throw bad(file, "its dictionary size " + dictionarySize + " runs past the file's end");
      }
      byte[] dictionary = new byte[(int) dictionarySize];
      readAt(channel, at + 8, (int) dictionarySize, file).get(dictionary);
      long indexOffset = readAt(channel, size - 8, 8, file).getLong();
      if (indexOffset < at + 8 + dictionarySize || indexOffset > size - 12) {
        throw bad(file, "its index offset " + Long.toUnsignedString(indexOffset) + " is not in it");
      }
      ByteBuffer index = readAt(channel, indexOffset, (int) (size - 8 - indexOffset), file);
      return new Layout(header, dictionary, subchunk, blocks(index, indexOffset, file));
    }
  }

  private static List<Block> blocks(ByteBuffer index, long indexOffset, Path file) {
    try {
      long count = Integer.toUnsignedLong(index.getInt());
      List<Block> blocks = new ArrayList<>();
      for (long b = 0; b < count; b++) {
        long[] ids = new long[10];
        for (int i = 0; i < ids.length; i++) {
          ids[i] = Integer.toUnsignedLong(index.getInt());
        }
        long warpCount = Integer.toUnsignedLong(index.getInt());
        List<Warp> warps = new ArrayList<>();
        for (long w = 0; w < warpCount; w++) {
          long instructions = Integer.toUnsignedLong(index.getInt());
          long frames = Integer.toUnsignedLong(index.getInt());
          long offset = index.getLong();
          if (offset < 0 || offset >= indexOffset || frames > index.remaining() / 4) {
            throw bad(
                file, "the index's warp " + w + " of block " + b + " points outside the data");
          }
          int[] lines = new int[(int) frames];
          for (int f = 0; f < lines.length; f++) {
            lines[f] = index.getInt();
          }
          warps.add(new Warp(instructions, offset, lines));
        }
        blocks.add(new Block(ids, warps));
      }
      return blocks;
    } catch (java.nio.BufferUnderflowException e) {
      throw bad(file, "its index ends early");
    }
  }

  private static byte[] readHeader(FileChannel channel, Path file) throws IOException {
    ByteArrayOutputStream header = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    long position = 0;
    while (true) {
      buffer.clear();
      int read = channel.read(buffer, position);
      if (read < 0) {
        throw bad(file, "its text header has no terminating NUL byte");
      }
      for (int i = 0; i < read; i++) {
        if (buffer.get(i) == 0) {
          header.write(buffer.array(), 0, i);
          return header.toByteArray();
        }
      }
      header.write(buffer.array(), 0, read);
      position += read;
      if (position > RawTraceScanner.MAX_LINE_LENGTH) {
        throw bad(file, "no NUL byte ends its text header in its first 64 MiB");
      }
    }
  }

  static ByteBuffer readAt(FileChannel channel, long position, int length, Path file)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      int read = channel.read(buffer, position + buffer.position());
      if (read < 0) {
        throw bad(file, "it ends early");
      }
    }
    return buffer.flip();
  }

  static TraceFormatException bad(Path file, String why) {
    return new TraceFormatException(
        file, 0, "not a well-formed .tracez (Accel-Sim 2.0's zstd trace): " + why);
  }

  /** The text, produced a piece at a time: the header, then per block and warp its lines. */
  private static final class TextStream extends InputStream {
    private final Path file;
    private final Layout layout;
    private final FileChannel channel;
    private final ZstdDecompressCtx zstd = new ZstdDecompressCtx();
    private byte[] piece;
    private int at;
    private int block = -1;
    private int warp;
    private int frame;
    private long framePosition;
    private boolean headerGiven;
    private boolean blockOpen;

    TextStream(Path file, Layout layout) throws IOException {
      this.file = file;
      this.layout = layout;
      this.channel = FileChannel.open(file, StandardOpenOption.READ);
      if (layout.dictionary().length > 0) {
        zstd.loadDict(layout.dictionary());
      }
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      while (piece == null || at == piece.length) {
        piece = next();
        at = 0;
        if (piece == null) {
          return -1;
        }
      }
      int n = Math.min(length, piece.length - at);
      System.arraycopy(piece, at, buffer, offset, n);
      at += n;
      return n;
    }

    /** The next piece of text; null at the end. */
    private byte[] next() throws IOException {
      if (!headerGiven) {
        headerGiven = true;
        return layout.header();
      }
      List<Block> blocks = layout.blocks();
      while (true) {
        if (block >= 0 && block < blocks.size()) {
          Block current = blocks.get(block);
          if (!blockOpen) {
            blockOpen = true;
            warp = 0;
            frame = -1;
            return blockHeader(current.ids());
          }
          if (warp < current.warps().size()) {
            Warp w = current.warps().get(warp);
            if (frame < 0) {
              frame = 0;
              framePosition = w.offset() + 8;
              return ascii("\nwarp = " + warp + "\ninsts = " + w.instructions() + "\n");
            }
            if (frame < w.frameLines().length) {
              frame++;
              return frame();
            }
            warp++;
            frame = -1;
            continue;
          }
          block++;
          blockOpen = false;
          return ascii("\n#END_TB\n");
        }
        if (block >= blocks.size()) {
          return null;
        }
        block++;
      }
    }

    private byte[] frame() throws IOException {
      int size = readAt(channel, framePosition, 4, file).getInt();
      if (size < 0 || size > MAX_FRAME_BYTES) {
        throw bad(file, "a frame's size " + Integer.toUnsignedString(size) + " is not plausible");
      }
      byte[] compressed = new byte[size];
      readAt(channel, framePosition + 4, size, file).get(compressed);
      framePosition += 4L + size;
      long length = Zstd.getFrameContentSize(compressed);
      if (length < 0 || length > MAX_FRAME_BYTES) {
        throw bad(file, "a zstd frame does not say how long its text is");
      }
      byte[] text;
      try {
        text = zstd.decompress(compressed, (int) length);
      } catch (ZstdException e) {
        throw bad(file, "a zstd frame does not decompress (" + e.getMessage() + ")");
      }
      byte[] line = new byte[text.length + 1];
      System.arraycopy(text, 0, line, 0, text.length);
      line[text.length] = '\n';
      return line;
    }

    private static byte[] blockHeader(long[] ids) {
      return ascii(
          "\n#BEGIN_TB\n\nthread block = "
              + ids[0]
              + ","
              + ids[1]
              + ","
              + ids[2]
              + "\ncluster id = "
              + ids[3]
              + ","
              + ids[4]
              + ","
              + ids[5]
              + "\ncluster cta = "
              + ids[6]
              + ","
              + ids[7]
              + ","
              + ids[8]
              + "\ncluster rank = "
              + ids[9]
              + "\n");
    }

    private static byte[] ascii(String text) {
      return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
      zstd.close();
      channel.close();
    }
  }
}
