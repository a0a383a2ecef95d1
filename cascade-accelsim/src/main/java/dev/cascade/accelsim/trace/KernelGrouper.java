package dev.cascade.accelsim.trace;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Post-processes one kernel: a raw trace in, the {@code .traceg} text out, byte for byte what
 * Accel-Sim's {@code post-traces-processing} writes.
 *
 * <p>The echoed lines (empty, {@code #}, {@code -}) are written as they are read. Instruction lines
 * are grouped per thread block and warp in pages of memory ({@link LinePages}, reused after each
 * spill) until {@code bufferBytes} of pages are in use; then the buffered blocks are written, in
 * ascending block id, to a spill run file beside the output and the buffers start empty again. At
 * the end the runs and what is still in memory are merged block by block, each run read
 * sequentially, so memory stays near {@code bufferBytes} whatever the trace's size. When {@code
 * maxRuns} runs exist the newest of them are merged into one (see {@link #mergeRuns}), which bounds
 * the open files. The spill files are deleted when the grouper returns or fails.
 */
final class KernelGrouper {

  /** Numbers about one grouped kernel; {@code spillBytes} counts spills and merges written. */
  record Stats(
      long threadBlocks,
      int warpsPerBlock,
      long instructions,
      long droppedLdgsts,
      long droppedTrywaits,
      RawIds ids,
      long outputBytes,
      int spillRuns,
      long spillBytes) {}

  private static final int IO_BUFFER = 1 << 16;

  private final long bufferBytes;
  private final Path spillDirectory;
  private final String spillPrefix;
  private final int maxRuns;
  private final RawTraceScanner scanner;
  private final LinePages pages = new LinePages();
  private final Map<Integer, LinePages.Block> blocks = new HashMap<>();
  private final List<Path> runs = new ArrayList<>();

  /** Per run, how many merges its lines went through; descending along {@link #runs}. */
  private final List<Integer> levels = new ArrayList<>();

  private final List<Path> spillFiles = new ArrayList<>();
  private LinePages.Block lastBlock;
  private int runsWritten;
  private long spillBytes;

  /**
   * @param source the raw trace, named in error messages
   * @param bufferBytes memory for instruction lines before they spill to disk
   * @param spillDirectory where spill runs go (the output's folder: same disk, room for it)
   * @param spillPrefix start of the spill files' names
   * @param maxRuns runs kept before the newest of them are merged into one, at least 2
   */
  KernelGrouper(
      Path source, long bufferBytes, Path spillDirectory, String spillPrefix, int maxRuns) {
    this.bufferBytes = bufferBytes;
    this.spillDirectory = spillDirectory;
    this.spillPrefix = spillPrefix;
    this.maxRuns = maxRuns;
    this.scanner = new RawTraceScanner(source);
  }

  /** Reads the raw trace from {@code in} and writes the {@code .traceg} text to {@code out}. */
  Stats group(InputStream in, OutputStream out) throws IOException {
    try {
      ByteSink sink = new ByteSink(out, 1 << 18);
      scanner.scan(
          in,
          new RawTraceScanner.Handler() {
            @Override
            public void echo(byte[] buffer, int start, int end) throws IOException {
              sink.write(buffer, start, end - start);
              sink.write('\n');
            }

            @Override
            public void instruction(int block, int warp, byte[] buffer, int start, int end)
                throws IOException {
              buffer(block, warp, buffer, start, end);
            }
          });
      writeBlocks(sink);
      sink.flush();
      return new Stats(
          scanner.seenBlocks().cardinality(),
          scanner.warpsPerBlock(),
          scanner.keptInstructions(),
          scanner.droppedLdgsts(),
          scanner.instructions() - scanner.keptInstructions(),
          scanner.ids() == null ? RawIds.FOUR : scanner.ids(),
          sink.written(),
          runsWritten,
          spillBytes);
    } finally {
      deleteSpills();
    }
  }

  private void buffer(int block, int warp, byte[] line, int start, int end) throws IOException {
    LinePages.Block target = lastBlock;
    if (target == null || target.id != block) {
      target = blocks.computeIfAbsent(block, id -> pages.new Block(id, scanner.warpsPerBlock()));
      lastBlock = target;
    }
    target.append(warp, line, start, end);
    if (pages.bytesInUse() > bufferBytes) {
      spill();
    }
  }

  /** Writes the buffered blocks as a run, in ascending block id, and empties the buffers. */
  private void spill() throws IOException {
    int[] ids = blocks.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
    Path run = newSpillFile();
    try (OutputStream file = Files.newOutputStream(run, StandardOpenOption.WRITE)) {
      ByteSink out = new ByteSink(file, 1 << 18);
      for (int id : ids) {
        LinePages.Block block = blocks.get(id);
        out.writeInt(id);
        for (int w = 0; w < block.counts.length; w++) {
          out.writeLong(block.counts[w]);
          out.writeLong(block.sizes[w]);
        }
        for (int w = 0; w < block.counts.length; w++) {
          block.writeWarp(w, out);
        }
        pages.release(block);
      }
      out.flush();
      spillBytes += out.written();
    }
    runs.add(run);
    levels.add(0);
    runsWritten++;
    blocks.clear();
    lastBlock = null;
    if (runs.size() >= maxRuns) {
      mergeRuns();
    }
  }

  /**
   * Merges the newest runs into one, keeping each warp's lines in run order: the shortest tail of
   * runs of the lowest levels that holds at least half of them. Merging every run each time would
   * rewrite the oldest lines once per merge; this way a line is rewritten about log(spills) times.
   * Levels descend along the list, so that tail is contiguous and the merged run takes its place.
   */
  private void mergeRuns() throws IOException {
    int from;
    int level = 0;
    while (true) {
      from = runs.size();
      while (from > 0 && levels.get(from - 1) <= level) {
        from--;
      }
      if (runs.size() - from >= Math.max(2, maxRuns / 2)) {
        break;
      }
      level++;
    }
    List<Path> tail = runs.subList(from, runs.size());
    Path merged = newSpillFile();
    int warps = scanner.warpsPerBlock();
    List<RunReader> readers = openRuns(tail, warps);
    try (OutputStream file = Files.newOutputStream(merged, StandardOpenOption.WRITE)) {
      ByteSink out = new ByteSink(file, 1 << 18);
      BitSet seen = scanner.seenBlocks();
      List<RunReader> here = new ArrayList<>();
      for (int id = seen.nextSetBit(0); id >= 0; id = seen.nextSetBit(id + 1)) {
        collect(readers, id, here);
        if (here.isEmpty()) {
          continue;
        }
        out.writeInt(id);
        for (int w = 0; w < warps; w++) {
          long count = 0;
          long size = 0;
          for (RunReader reader : here) {
            count += reader.counts[w];
            size += reader.sizes[w];
          }
          out.writeLong(count);
          out.writeLong(size);
        }
        for (int w = 0; w < warps; w++) {
          for (RunReader reader : here) {
            out.copyFrom(reader.in, reader.sizes[w]);
          }
        }
        for (RunReader reader : here) {
          reader.advance();
        }
      }
      out.flush();
      spillBytes += out.written();
    } finally {
      closeAll(readers);
    }
    for (Path run : tail) {
      Files.deleteIfExists(run);
    }
    tail.clear();
    levels.subList(from, levels.size()).clear();
    runs.add(merged);
    levels.add(level + 1);
  }

  /**
   * Writes every thread block seen, in ascending linear id: {@code \n#BEGIN_TB\n}, {@code \nthread
   * block = x,y,z\n}, per warp {@code \nwarp = j\ninsts = n\n} and its lines, {@code \n#END_TB\n}.
   */
  private void writeBlocks(ByteSink out) throws IOException {
    int warps = scanner.warpsPerBlock();
    Set<Integer> dropped = scanner.droppedTrywaitAddresses();
    TrywaitFilter filter = dropped.isEmpty() ? null : new TrywaitFilter(out, dropped);
    List<RunReader> readers = openRuns(runs, warps);
    try {
      BitSet seen = scanner.seenBlocks();
      List<RunReader> here = new ArrayList<>();
      for (int id = seen.nextSetBit(0); id >= 0; id = seen.nextSetBit(id + 1)) {
        collect(readers, id, here);
        LinePages.Block memory = blocks.get(id);
        out.writeAscii("\n#BEGIN_TB\n\nthread block = ");
        out.writeAscii(scanner.coordinates(id));
        out.write('\n');
        out.writeAscii(scanner.clusterLines(id));
        for (int w = 0; w < warps; w++) {
          long count = memory == null ? 0 : memory.counts[w];
          for (RunReader reader : here) {
            count += reader.counts[w];
          }
          for (int address : dropped) {
            count -= scanner.trywaitsOn(address, id, w);
          }
          out.writeAscii("\nwarp = ");
          out.writeDecimal(w);
          out.writeAscii("\ninsts = ");
          out.writeDecimal(count);
          out.write('\n');
          ByteSink lines = filter == null ? out : filter.sink();
          for (RunReader reader : here) {
            lines.copyFrom(reader.in, reader.sizes[w]);
          }
          if (memory != null) {
            memory.writeWarp(w, lines);
          }
          if (filter != null) {
            lines.flush();
          }
        }
        out.writeAscii("\n#END_TB\n");
        for (RunReader reader : here) {
          reader.advance();
        }
      }
    } finally {
      closeAll(readers);
    }
  }

  private static void collect(List<RunReader> readers, int id, List<RunReader> here) {
    here.clear();
    for (RunReader reader : readers) {
      if (reader.block == id) {
        here.add(reader);
      }
    }
  }

  private static List<RunReader> openRuns(List<Path> files, int warps) throws IOException {
    List<RunReader> readers = new ArrayList<>(files.size());
    try {
      for (Path run : files) {
        readers.add(new RunReader(run, warps));
      }
    } catch (IOException | RuntimeException e) {
      closeAll(readers);
      throw e;
    }
    return readers;
  }

  private Path newSpillFile() throws IOException {
    while (true) {
      Path file =
          spillDirectory.resolve(
              spillPrefix
                  + "spill-"
                  + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1)
                  + ".tmp");
      try {
        Files.createFile(file);
        spillFiles.add(file);
        return file;
      } catch (FileAlreadyExistsException taken) {
        // try another name
      }
    }
  }

  private void deleteSpills() throws IOException {
    IOException failure = null;
    for (Path file : spillFiles) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    spillFiles.clear();
    runs.clear();
    levels.clear();
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeAll(List<? extends Closeable> closeables) throws IOException {
    IOException failure = null;
    for (Closeable closeable : closeables) {
      try {
        closeable.close();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Passes a warp's lines on to {@code out} except the TRYWAITs on the given mbarriers, the lines
   * the newest post-processor drops. Only used when there is one to drop.
   */
  private final class TrywaitFilter extends OutputStream {
    private final ByteSink out;
    private final Set<Integer> dropped;
    private final ByteSink sink = new ByteSink(this, 1 << 16);
    private byte[] line = new byte[256];
    private int length;

    TrywaitFilter(ByteSink out, Set<Integer> dropped) {
      this.out = out;
      this.dropped = dropped;
    }

    ByteSink sink() {
      return sink;
    }

    @Override
    public void write(int b) throws IOException {
      if (length == line.length) {
        line = Arrays.copyOf(line, line.length * 2);
      }
      line[length++] = (byte) b;
      if (b == '\n') {
        MbarrierUse use = MbarrierUse.of(line, 0, length - 1, scanner.lineInfo());
        if (use == null || use.arrives() || !dropped.contains(use.address())) {
          out.write(line, 0, length);
        }
        length = 0;
      }
    }

    @Override
    public void write(byte[] bytes, int offset, int count) throws IOException {
      for (int i = 0; i < count; i++) {
        write(bytes[offset + i]);
      }
    }
  }

  /** Reads a run sequentially: the directory of its next block, then that block's warp bytes. */
  private static final class RunReader implements Closeable {
    final DataInputStream in;
    final long[] counts;
    final long[] sizes;
    int block = -1;

    RunReader(Path run, int warps) throws IOException {
      this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), IO_BUFFER));
      this.counts = new long[warps];
      this.sizes = new long[warps];
      advance();
    }

    /** Reads the next block's id and directory; block is -1 at the end of the run. */
    void advance() throws IOException {
      int first = in.read();
      if (first < 0) {
        block = -1;
        return;
      }
      block = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedShort());
      for (int w = 0; w < counts.length; w++) {
        counts[w] = in.readLong();
        sizes[w] = in.readLong();
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
