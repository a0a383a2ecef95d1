package dev.cascade.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.tukaani.xz.XZInputStream;

/**
 * Builds a large raw Accel-Sim trace ({@code kernelslist} and one {@code kernel-1.trace}) from a
 * real post-processed fixture trace: the fixture's thread blocks are repeated along x until the raw
 * file reaches the size asked for, and written as NVBit's tracer does, many thread blocks resident
 * at once with their warps interleaved a few lines at a time, and every {@code LDGSTS} line written
 * twice (the post-processor drops the first of each pair). It also computes the length and CRC-32
 * of the {@code .traceg} the post-processor must write, so a benchmark can check the output without
 * keeping a second copy on disk.
 */
final class RawTraceGenerator {

  /** The trace written, and what its {@code kernel-1.traceg} must be. */
  record RawTrace(
      Path kernelsList,
      Path rawKernel,
      long rawBytes,
      int threadBlocks,
      long expectedBytes,
      long expectedCrc) {}

  /** Thread blocks resident at once, as on a GPU with many SMs. */
  private static final int RESIDENT_BLOCKS = 64;

  /** Lines a warp writes before the next warp's turn. */
  private static final int LINES_PER_TURN = 8;

  private RawTraceGenerator() {}

  /** One source thread block: per warp, its processed instruction lines. */
  private record SourceBlock(List<List<Line>> warps) {}

  /** A processed instruction line (without newline), and whether its opcode is an LDGSTS. */
  private record Line(byte[] bytes, boolean ldgsts) {}

  /**
   * Writes {@code folder/kernelslist} and {@code folder/kernel-1.trace} of about {@code
   * targetBytes} from the post-processed {@code source} ({@code .traceg} or {@code .traceg.xz}).
   */
  static RawTrace generate(Path source, Path folder, long targetBytes) throws IOException {
    String traceg = read(source);
    int firstBlock = traceg.indexOf("\n#BEGIN_TB\n");
    if (firstBlock < 0) {
      throw new IllegalArgumentException(source + " has no thread block");
    }
    // What the post-processor echoes (header, comments, empty lines); the raw file has one
    // newline less, since the C++ tool reads an empty last line after the final newline.
    String echoed = traceg.substring(0, firstBlock);
    List<SourceBlock> blocks = parseBlocks(traceg.substring(firstBlock));
    long rawPerRound = 0;
    for (SourceBlock block : blocks) {
      rawPerRound += rawBytes(block);
    }
    int count = (int) Math.max(1, (targetBytes * blocks.size() + rawPerRound - 1) / rawPerRound);
    String header = withGrid(echoed, "(" + count + ",1,1)");

    Files.createDirectories(folder);
    Path list = folder.resolve("kernelslist");
    Files.writeString(list, "kernel-1.trace\n");
    Path raw = folder.resolve("kernel-1.trace");
    long rawBytes;
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(raw), 1 << 20)) {
      byte[] head = header.substring(0, header.length() - 1).getBytes(StandardCharsets.US_ASCII);
      out.write(head);
      rawBytes = head.length + writeInterleaved(blocks, count, out);
    }
    CRC32 crc = new CRC32();
    long expected = expected(header, blocks, count, crc);
    return new RawTrace(list, raw, rawBytes, count, expected, crc.getValue());
  }

  /** Runs up to {@link #RESIDENT_BLOCKS} blocks at once; a finished block makes room for one. */
  private static long writeInterleaved(List<SourceBlock> blocks, int count, OutputStream out)
      throws IOException {
    record Running(int id, SourceBlock block, int[] next) {}
    List<Running> running = new ArrayList<>();
    int started = 0;
    long written = 0;
    while (started < count || !running.isEmpty()) {
      while (running.size() < RESIDENT_BLOCKS && started < count) {
        SourceBlock block = blocks.get(started % blocks.size());
        running.add(new Running(started, block, new int[block.warps().size()]));
        started++;
      }
      for (int r = running.size() - 1; r >= 0; r--) {
        Running block = running.get(r);
        boolean more = false;
        for (int w = 0; w < block.next().length; w++) {
          List<Line> lines = block.block().warps().get(w);
          byte[] prefix = (block.id() + " 0 0 " + w + " ").getBytes(StandardCharsets.US_ASCII);
          int end = Math.min(lines.size(), block.next()[w] + LINES_PER_TURN);
          for (int i = block.next()[w]; i < end; i++) {
            Line line = lines.get(i);
            for (int copy = line.ldgsts() ? 2 : 1; copy > 0; copy--) {
              out.write(prefix);
              out.write(line.bytes());
              out.write('\n');
              written += prefix.length + line.bytes().length + 1;
            }
          }
          block.next()[w] = end;
          more |= end < lines.size();
        }
        if (!more) {
          running.remove(r);
        }
      }
    }
    return written;
  }

  /** The {@code .traceg} text's length; its bytes go through {@code crc}. */
  private static long expected(String header, List<SourceBlock> blocks, int count, CRC32 crc) {
    long length = 0;
    StringBuilder text = new StringBuilder(header);
    for (int id = 0; id < count; id++) {
      SourceBlock block = blocks.get(id % blocks.size());
      text.append("\n#BEGIN_TB\n\nthread block = ").append(id).append(",0,0\n");
      for (int w = 0; w < block.warps().size(); w++) {
        List<Line> lines = block.warps().get(w);
        text.append("\nwarp = ").append(w).append("\ninsts = ").append(lines.size()).append('\n');
        for (Line line : lines) {
          text.append(new String(line.bytes(), StandardCharsets.US_ASCII)).append('\n');
        }
      }
      text.append("\n#END_TB\n");
      byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
      crc.update(bytes);
      length += bytes.length;
      text.setLength(0);
    }
    return length;
  }

  private static List<SourceBlock> parseBlocks(String text) {
    List<SourceBlock> blocks = new ArrayList<>();
    List<List<Line>> warps = null;
    List<Line> warp = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("thread block = ")) {
        warps = new ArrayList<>();
        blocks.add(new SourceBlock(warps));
      } else if (line.startsWith("warp = ")) {
        warp = new ArrayList<>();
        warps.add(warp);
      } else if (!line.isEmpty() && !line.startsWith("#") && !line.startsWith("insts = ")) {
        warp.add(new Line(line.getBytes(StandardCharsets.US_ASCII), isLdgsts(line)));
      }
    }
    return blocks;
  }

  private static long rawBytes(SourceBlock block) {
    long bytes = 0;
    for (List<Line> warp : block.warps()) {
      for (Line line : warp) {
        bytes += (line.ldgsts() ? 2 : 1) * (line.bytes().length + 11L);
      }
    }
    return bytes;
  }

  /** Whether a processed line's opcode (after PC, mask, and the destinations) is an LDGSTS. */
  private static boolean isLdgsts(String line) {
    String[] fields = line.trim().split("\\s+");
    int destinations = Integer.parseInt(fields[2]);
    return fields[3 + destinations].contains("LDGSTS");
  }

  private static String withGrid(String echoed, String grid) {
    StringBuilder out = new StringBuilder();
    for (String line : echoed.split("\n", -1)) {
      if (!out.isEmpty()) {
        out.append('\n');
      }
      out.append(line.startsWith("-grid dim = ") ? "-grid dim = " + grid : line);
    }
    return out.toString();
  }

  private static String read(Path file) throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in =
            file.getFileName().toString().endsWith(".xz") ? new XZInputStream(raw) : raw) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }
}
