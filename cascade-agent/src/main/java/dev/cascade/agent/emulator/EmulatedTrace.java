package dev.cascade.agent.emulator;

import dev.cascade.accelsim.trace.KernelHeader;
import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceFormatException;
import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.accelsim.trace.TraceReader;
import dev.cascade.accelsim.trace.Tracez;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A trace as the emulator runs it: the lines of {@code kernelslist.g} in order (memcpys and
 * kernels), each kernel with its header and instruction mix.
 *
 * <p>A kernel file no larger than {@code countLimitBytes} on disk is read in full: its instructions
 * are counted, with their active lanes (the mask's bits) and whether they touch global or shared
 * memory (by opcode; a TMA transfer by the bytes its line says it moves). Lines are read as
 * Accel-Sim reads them, up to tracer version 6 ({@link TraceLine}). A larger one is estimated:
 * about one warp instruction per {@value #BYTES_PER_INSTRUCTION} bytes of decompressed trace, an xz
 * file taken as {@value #XZ_RATIO} times its size, never fewer than one per warp of the grid; full
 * lanes; and a memory mix drawn from the kernel's name (the same for every config and replica).
 *
 * <p>Where processing left {@link PrecomputedCounts} beside the list, a kernel whose entry still
 * matches its file is taken from there instead, with the same numbers, without opening the file.
 *
 * @param kernelsList the {@code kernelslist.g} read
 * @param steps its memcpy and kernel lines, in order
 */
public record EmulatedTrace(Path kernelsList, List<Step> steps) {

  /** Files up to this size on disk are counted in full by default: 4 MiB. */
  public static final long DEFAULT_COUNT_LIMIT_BYTES = 4L << 20;

  static final int BYTES_PER_INSTRUCTION = 42;
  static final int XZ_RATIO = 10;

  /** One line of the kernels list. */
  public sealed interface Step permits Memcpy, Kernel {}

  /** A memcpy line, echoed as Accel-Sim echoes it. */
  public record Memcpy(String line) implements Step {}

  /** A kernel line. */
  public record Kernel(EmulatedKernel kernel) implements Step {}

  public EmulatedTrace {
    Objects.requireNonNull(kernelsList, "kernelsList");
    steps = List.copyOf(steps);
  }

  /**
   * Reads the trace given as a {@code kernelslist.g}, a folder holding it, or a Cascade trace
   * folder holding {@code traces/kernelslist.g}.
   *
   * @throws NoSuchFileException when there is no {@code kernelslist.g}
   * @throws TraceFormatException when a listed file is missing or cannot be read as a trace
   * @throws IOException when a file cannot be read
   */
  public static EmulatedTrace load(Path trace, long countLimitBytes) throws IOException {
    return load(trace, countLimitBytes, null);
  }

  /**
   * As {@link #load(Path, long)}, taking each kernel from {@code precomputed} where it has an entry
   * for it; null reads the {@link PrecomputedCounts} beside the list.
   */
  static EmulatedTrace load(Path trace, long countLimitBytes, PrecomputedCounts precomputed)
      throws IOException {
    Path list =
        TraceLayout.findProcessedList(trace)
            .orElseThrow(
                () ->
                    new NoSuchFileException(
                        trace.toString(),
                        null,
                        "no kernelslist.g in it or in its traces/ folder; a trace to emulate must be"
                            + " post-processed (cascade postprocess DIR)"));
    KernelsList kernels = KernelsList.read(list);
    PrecomputedCounts counts = precomputed != null ? precomputed : PrecomputedCounts.read(list);
    List<KernelsList.Entry> entries = kernels.entries();
    for (KernelsList.Kernel kernel : kernels.kernels()) {
      if (!Files.isRegularFile(kernel.file())) {
        throw new TraceFormatException(
            list,
            kernel.lineNumber(),
            "the list names '" + kernel.line() + "', which is not a file in " + kernels.folder());
      }
    }
    int[] kernelIndex = new int[entries.size()];
    int next = 0;
    for (int i = 0; i < entries.size(); i++) {
      kernelIndex[i] = entries.get(i) instanceof KernelsList.Kernel ? ++next : 0;
    }
    IntStream indexes = IntStream.range(0, entries.size());
    if (entries.size() > 4) {
      indexes = indexes.parallel();
    }
    Step[] steps = new Step[entries.size()];
    try {
      indexes.forEach(
          i -> {
            try {
              steps[i] =
                  switch (entries.get(i)) {
                    case KernelsList.Memcpy memcpy -> new Memcpy(memcpy.line());
                    case KernelsList.Kernel kernel ->
                        new Kernel(read(kernelIndex[i], kernel, countLimitBytes, counts));
                  };
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new EmulatedTrace(list.toAbsolutePath().normalize(), List.of(steps));
  }

  /** The kernels, in order. */
  public List<EmulatedKernel> kernels() {
    List<EmulatedKernel> kernels = new ArrayList<>();
    for (Step step : steps) {
      if (step instanceof Kernel kernel) {
        kernels.add(kernel.kernel());
      }
    }
    return kernels;
  }

  /** The number of kernels. */
  public int kernelCount() {
    int count = 0;
    for (Step step : steps) {
      if (step instanceof Kernel) {
        count++;
      }
    }
    return count;
  }

  private static EmulatedKernel read(
      int index, KernelsList.Kernel entry, long countLimitBytes, PrecomputedCounts precomputed)
      throws IOException {
    Path file = entry.file();
    long size = Files.size(file);
    Optional<PrecomputedCounts.Entry> known = precomputed.forKernel(index, entry, size);
    KernelHeader header = null;
    Counts counts = null;
    if (known.isPresent() && (known.get().counted() || size > countLimitBytes)) {
      header = PrecomputedCounts.header(known.get(), file).orElse(null);
      if (header != null) {
        counts =
            size <= countLimitBytes ? counted(known.get().counts()) : estimate(entry, header, size);
      }
    }
    if (counts == null) { // no precomputed entry for it: read the file itself
      header = TraceReader.readHeader(file);
      counts = size <= countLimitBytes ? count(entry) : estimate(entry, header, size);
    }
    return new EmulatedKernel(
        index,
        entry.line(),
        entry.file(),
        header,
        counts.warpInstructions(),
        counts.threadInstructions(),
        counts.globalLoads(),
        counts.globalStores(),
        counts.sharedAccesses(),
        counts.loadBytes(),
        counts.storeBytes(),
        counts.longestWarp(),
        counts.loadRoundTrips(),
        counts.counted());
  }

  /** A kernel's instruction counts, as {@link EmulatedKernel} holds them. */
  private record Counts(
      long warpInstructions,
      long threadInstructions,
      long globalLoads,
      long globalStores,
      long sharedAccesses,
      long loadBytes,
      long storeBytes,
      long longestWarp,
      long loadRoundTrips,
      boolean counted) {}

  /** Counts kept in a {@link PrecomputedCounts} entry, in {@link Counts}' order. */
  private static Counts counted(long[] n) {
    return new Counts(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], true);
  }

  private static Counts count(KernelsList.Kernel entry) throws IOException {
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(TraceReader.open(entry.file()), StandardCharsets.ISO_8859_1),
            1 << 16)) {
      WarpCounter counter = new WarpCounter();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        counter.accept(line);
      }
      return counter.counts();
    }
  }

  /**
   * Counts a kernel's instructions line by line, once, as the trace is read. A warp's memory round
   * trips are counted as a scoreboard sees them: a global load of a line the warp has not loaded
   * yet marks its destination registers pending; the first instruction that reads a pending
   * register (or the warp's end) waits for one round trip, which serves every load issued before
   * it. So independent loads issued back to back cost one trip, a chain of dependent ones a trip
   * each.
   */
  private static final class WarpCounter {
    private long instructions;
    private long lanes;
    private long loads;
    private long stores;
    private long shared;
    private long loadBytes;
    private long storeBytes;
    private long longestWarp;
    private long mostTrips;
    private long warpInstructions;
    private long warpTrips;
    private final Set<Long> warpLines = new HashSet<>();
    private final Set<Integer> pending = new HashSet<>();
    // From the kernel's header, which comes before its instructions.
    private int tracerVersion;
    private boolean lineInfo;

    void accept(String line) {
      if (line.isEmpty()) {
        return;
      }
      char first = line.charAt(0);
      if (first == '-') {
        header(line);
        return;
      }
      if (first == '#' || line.startsWith("thread block") || line.startsWith("cluster ")) {
        // "cluster id = ", "cluster cta = ", "cluster rank = ": Accel-Sim 2.0's block lines.
        return;
      }
      if (line.startsWith("warp")) {
        endWarp();
        return;
      }
      if (line.startsWith("insts")) {
        return;
      }
      TraceLine parsed = TraceLine.parse(line, tracerVersion, lineInfo);
      String opcode = parsed.opcode;
      if (opcode != null && (opcode.equals("REPLAY_START") || opcode.equals("REPLAY_END"))) {
        return; // tracer version 6's replay markers: no instruction the simulator runs
      }
      instructions++;
      warpInstructions++;
      if (parsed.fields.length < (lineInfo ? 5 : 4)) {
        return;
      }
      int active = parsed.lanes();
      lanes += active;
      if (opcode == null) {
        return;
      }
      if (!pending.isEmpty() && readsPending(parsed)) {
        warpTrips++;
        pending.clear();
      }
      Kind kind = kind(opcode);
      if (kind == Kind.SHARED) {
        shared++;
      } else if (parsed.tma && active > 0) {
        // A TMA (bulk tensor) transfer moves its byte count once, whatever its lanes and however
        // many CTAs a multicast delivers to; it completes on an mbarrier, not on a register.
        long bytes = parsed.tmaBytesMoved();
        if (kind == Kind.STORE) {
          stores++;
          storeBytes += bytes;
        } else {
          loads++;
          loadBytes += bytes;
        }
      } else if ((kind == Kind.LOAD || kind == Kind.STORE) && active > 0) {
        int width = parsed.width > 0 ? parsed.width : 4;
        long bytes = (width * (long) active + 31) / 32 * 32;
        if (kind == Kind.STORE) {
          stores++;
          storeBytes += bytes;
        } else {
          loads++;
          loadBytes += bytes;
          if (warpLines.add(parsed.firstAddress >>> 7)) {
            markPending(parsed, width);
          }
        }
      }
    }

    /** {@code -accelsim tracer version = 6} and {@code -enable lineinfo = 1} say how to read. */
    private void header(String line) {
      int equals = line.indexOf('=');
      if (equals < 0) {
        return;
      }
      String key = line.substring(1, equals).trim();
      String value = line.substring(equals + 1).trim();
      try {
        if (key.equals("accelsim tracer version")) {
          tracerVersion = Integer.parseInt(value);
        } else if (key.equals("enable lineinfo")) {
          lineInfo = Integer.parseInt(value) != 0;
        }
      } catch (NumberFormatException e) {
        // not a number: read as the tracer's defaults (version 0, no line numbers)
      }
    }

    /** Whether the instruction's source registers include a pending one. */
    private boolean readsPending(TraceLine line) {
      int end = Math.min(line.sourcesAt + line.sources, line.fields.length);
      for (int i = line.sourcesAt; i < end; i++) {
        int register = register(line.fields[i]);
        if (register >= 0 && pending.contains(register)) {
          return true;
        }
      }
      return false;
    }

    /** A load's destinations, each as wide as its access ({@code .128} fills four registers). */
    private void markPending(TraceLine line, int width) {
      int end = Math.min(line.destinationsAt + line.destinations, line.fields.length);
      for (int i = line.destinationsAt; i < end; i++) {
        int register = register(line.fields[i]);
        for (int r = 0; register >= 0 && r < Math.max(1, width / 4); r++) {
          pending.add(register + r);
        }
      }
    }

    /** {@code R12} gives 12; anything else (uniform, predicate, RZ) -1. */
    private static int register(String field) {
      if (field.length() < 2 || field.charAt(0) != 'R') {
        return -1;
      }
      try {
        int number = Integer.parseInt(field, 1, field.length(), 10);
        return number == 255 ? -1 : number;
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    private void endWarp() {
      if (!pending.isEmpty()) {
        warpTrips++;
        pending.clear();
      }
      longestWarp = Math.max(longestWarp, warpInstructions);
      mostTrips = Math.max(mostTrips, warpTrips);
      warpInstructions = 0;
      warpTrips = 0;
      warpLines.clear();
    }

    Counts counts() {
      endWarp();
      return new Counts(
          instructions,
          lanes,
          loads,
          stores,
          shared,
          loadBytes,
          storeBytes,
          longestWarp,
          mostTrips,
          true);
    }
  }

  private static Counts estimate(KernelsList.Kernel entry, KernelHeader header, long size)
      throws IOException {
    long decompressed = entry.line().endsWith(".xz") ? size * XZ_RATIO : size;
    long warps = Math.max(1, header.threadBlocks()) * Math.max(1, header.warpsPerBlock());
    // A .tracez's index holds its exact count: its compressed size says little about it.
    long instructions =
        Tracez.isTracez(entry.file())
            ? Math.max(1, Tracez.countInstructions(entry.file()))
            : Math.max(warps, decompressed / BYTES_PER_INSTRUCTION);
    long threads = Math.max(1, header.threadsPerBlock());
    double lanesPerWarp = Math.min(32.0, threads / (double) Math.max(1, header.warpsPerBlock()));
    SplitMix64 random = SplitMix64.of(SplitMix64.hash(header.name()), 0x5EED_1A7EL);
    double loadShare = random.between(0.04, 0.20);
    double storeShare = random.between(0.01, 0.06);
    double sharedShare = random.between(0.0, 0.12);
    long loads = Math.round(instructions * loadShare);
    long stores = Math.round(instructions * storeShare);
    long perWarp = Math.max(1, instructions / warps);
    // Estimated accesses are taken as coalesced 4-byte ones, half of them waiting on DRAM.
    return new Counts(
        instructions,
        Math.round(instructions * lanesPerWarp),
        loads,
        stores,
        Math.round(instructions * sharedShare),
        loads * 128,
        stores * 128,
        perWarp,
        Math.round(perWarp * loadShare / 2),
        false);
  }

  private enum Kind {
    LOAD,
    STORE,
    SHARED,
    OTHER
  }

  private static Kind kind(String opcode) {
    int dot = opcode.indexOf('.');
    String base = dot < 0 ? opcode : opcode.substring(0, dot);
    return switch (base) {
      case "LDG", "LD", "LDGSTS", "LDL", "UTMALDG", "UTMAPF", "UBLKPF" -> Kind.LOAD;
      case "STG", "ST", "STL", "ATOM", "ATOMG", "RED", "UTMASTG", "UTMAREDG", "UBLKRED" ->
          Kind.STORE;
      // A bulk copy's direction is its suffix: .G.S writes global memory from shared.
      case "UBLKCP" -> opcode.contains(".G.S") ? Kind.STORE : Kind.LOAD;
      case "LDS", "STS", "LDSM", "ATOMS" -> Kind.SHARED;
      default -> Kind.OTHER;
    };
  }
}
