package dev.cascade.core.internal.trace;

import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.trace.TraceProcessor.Facts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The trace lifecycle (DESIGN.md section 5) as pure decisions: from what is on disk (a folder
 * snapshot, what {@code metadata.json} says, how long the files have been quiet) and the stored
 * trace to the traces to store next and what to do then. No I/O, no clock, no threads: {@link
 * TraceEngine} gathers the facts and carries the decision out.
 *
 * <p>A trace is {@code uploading} from its first file; {@code processing} once {@code
 * metadata.json} exists, does not say {@code "status": "running"} or {@code "failed"}, and nothing
 * under the trace changed for the quiet period; {@code ready} when processing leaves a {@code
 * traces/kernelslist.g}; {@code failed} when metadata says so, when metadata is still not valid
 * JSON after the quiet period, or when processing fails, with the reason kept. A ready or failed
 * trace whose files change goes back to {@code uploading} (unless metadata says failed), so a fixed
 * re-upload is processed again.
 */
final class TraceLifecycle {

  static final String KERNELSLIST_G = "traces/kernelslist.g";

  /**
   * What the engine sees of one trace folder.
   *
   * @param stored the trace as stored; empty for a folder seen for the first time
   * @param changed the files changed since the last look (or, at the first look after a start,
   *     while Cascade was down)
   * @param quietForNanos how long the files have not changed
   * @param now the time to stamp on the traces decided
   */
  record Look(
      String id,
      Optional<Trace> stored,
      FolderSnapshot snapshot,
      TraceMetadata.Read metadata,
      boolean changed,
      long quietForNanos,
      Instant now) {

    Look {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(stored, "stored");
      Objects.requireNonNull(snapshot, "snapshot");
      Objects.requireNonNull(metadata, "metadata");
      Objects.requireNonNull(now, "now");
    }
  }

  /**
   * What to do with a trace.
   *
   * @param saves the traces to store, in order; each is compared with the one before it (the first
   *     with the stored trace), and one that says nothing new is not stored
   * @param checkInNanos when positive or zero, look at the trace again after this long (the quiet
   *     period is not over); negative for no check
   * @param process when present, store it ({@code processing}) and start processing the trace
   */
  record Decision(List<Trace> saves, long checkInNanos, Optional<Trace> process) {

    static final Decision NOTHING = new Decision(List.of(), -1, Optional.empty());

    Decision {
      saves = List.copyOf(saves);
      Objects.requireNonNull(process, "process");
    }
  }

  private final long quietNanos;

  TraceLifecycle(long quietNanos) {
    if (quietNanos <= 0) {
      throw new IllegalArgumentException("the quiet period must be positive; got " + quietNanos);
    }
    this.quietNanos = quietNanos;
  }

  /** A kernel count for the log: "1 kernel", "5 kernels". */
  static String kernels(int count) {
    return count + (count == 1 ? " kernel" : " kernels");
  }

  /**
   * False when there is nothing to decide yet: the trace is being processed (decided when that
   * ends), or a new folder holds only temporary upload files.
   */
  static boolean needsDecision(
      boolean beingProcessed, Optional<Trace> stored, FolderSnapshot snapshot) {
    return !beingProcessed && (stored.isPresent() || snapshot.hasContent());
  }

  /** The next step for a trace folder that {@link #needsDecision needs a decision}. */
  Decision decide(Look look) {
    TraceState state = look.stored().map(Trace::state).orElse(TraceState.UPLOADING);
    return switch (state) {
      case UPLOADING -> upload(look, look.stored(), List.of());
      case PROCESSING ->
          new Decision(
              List.of(),
              -1,
              Optional.of(processing(look, look.stored(), metadataOrNone(look.metadata()))));
      case READY, FAILED ->
          look.changed() ? reopen(look, look.stored().orElseThrow()) : Decision.NOTHING;
    };
  }

  /**
   * On the first look after a start: true when a ready or failed trace's files no longer match what
   * was recorded (their size on disk differs, or a ready trace lost its kernelslist.g), so files
   * changed while Cascade was down.
   */
  static boolean changedWhileDown(Trace stored, FolderSnapshot snapshot) {
    return switch (stored.state()) {
      case READY -> stored.sizeBytes() != snapshot.sizeBytes() || !snapshot.contains(KERNELSLIST_G);
      case FAILED -> stored.sizeBytes() != snapshot.sizeBytes();
      case UPLOADING, PROCESSING -> false;
    };
  }

  /**
   * The trace once processing ended: {@code ready} with the facts found, or {@code failed} with
   * {@code reason} (null when processing succeeded) or because no kernelslist.g was left.
   *
   * @param snapshot the folder as processing left it: the new baseline
   */
  static Trace afterProcessing(
      String id,
      Optional<Trace> stored,
      TraceMetadata metadata,
      FolderSnapshot snapshot,
      Facts facts,
      String reason,
      Instant now) {
    if (reason == null && !snapshot.contains(KERNELSLIST_G)) {
      reason =
          KERNELSLIST_G
              + " is missing after processing; upload it, or a raw traces/kernelslist to"
              + " post-process";
    }
    if (reason != null) {
      return trace(id, TraceState.FAILED, reason, stored, metadata, snapshot, 0, List.of(), now);
    }
    return trace(
        id,
        TraceState.READY,
        null,
        stored,
        metadata,
        snapshot,
        facts.kernelCount(),
        facts.kernels(),
        now);
  }

  /** True when the two differ at most in {@code updatedAt}: storing the second says nothing new. */
  static boolean sameFacts(Trace a, Trace b) {
    return a.state() == b.state()
        && Objects.equals(a.reason(), b.reason())
        && a.traceGpuArch().equals(b.traceGpuArch())
        && Objects.equals(a.suggestedSimConfig(), b.suggestedSimConfig())
        && Objects.equals(a.modelName(), b.modelName())
        && a.tracedLayers().equals(b.tracedLayers())
        && a.kernelCount() == b.kernelCount()
        && a.kernels().equals(b.kernels())
        && a.sizeBytes() == b.sizeBytes()
        && a.sample() == b.sample()
        && a.createdAt().equals(b.createdAt());
  }

  static TraceMetadata metadataOrNone(TraceMetadata.Read read) {
    return read instanceof TraceMetadata.Parsed parsed ? parsed.metadata() : TraceMetadata.none();
  }

  /** An uploading trace: failed, still uploading, waiting for quiet, or ready to process. */
  private Decision upload(Look look, Optional<Trace> stored, List<Trace> before) {
    List<Trace> saves = new ArrayList<>(before);
    TraceMetadata.Read read = look.metadata();
    TraceMetadata metadata = metadataOrNone(read);
    if (read instanceof TraceMetadata.Parsed parsed && parsed.metadata().saysFailed()) {
      saves.add(failed(look, stored, metadata, metadata.failureReason()));
      return new Decision(saves, -1, Optional.empty());
    }
    boolean complete =
        read instanceof TraceMetadata.Invalid
            || (read instanceof TraceMetadata.Parsed parsed && !parsed.metadata().saysRunning());
    if (!complete) {
      // No metadata yet, or the profiler is still running: wait for the next change.
      saves.add(uploading(look, stored, metadata));
      return new Decision(saves, -1, Optional.empty());
    }
    if (look.quietForNanos() < quietNanos) {
      saves.add(uploading(look, stored, metadata));
      return new Decision(saves, quietNanos - look.quietForNanos(), Optional.empty());
    }
    if (read instanceof TraceMetadata.Invalid invalid) {
      saves.add(failed(look, stored, metadata, invalid.reason()));
      return new Decision(saves, -1, Optional.empty());
    }
    return new Decision(saves, -1, Optional.of(processing(look, stored, metadata)));
  }

  /**
   * A ready or failed trace whose files changed: back to uploading, unless metadata says failed.
   */
  private Decision reopen(Look look, Trace trace) {
    Optional<Trace> stored = Optional.of(trace);
    if (look.metadata() instanceof TraceMetadata.Parsed parsed && parsed.metadata().saysFailed()) {
      return new Decision(
          List.of(failed(look, stored, parsed.metadata(), parsed.metadata().failureReason())),
          -1,
          Optional.empty());
    }
    Trace uploading = uploading(look, stored, metadataOrNone(look.metadata()));
    return upload(look, Optional.of(uploading), List.of(uploading));
  }

  private static Trace uploading(Look look, Optional<Trace> stored, TraceMetadata metadata) {
    return trace(
        look.id(),
        TraceState.UPLOADING,
        null,
        stored,
        metadata,
        look.snapshot(),
        0,
        List.of(),
        look.now());
  }

  private static Trace processing(Look look, Optional<Trace> stored, TraceMetadata metadata) {
    return trace(
        look.id(),
        TraceState.PROCESSING,
        null,
        stored,
        metadata,
        look.snapshot(),
        0,
        List.of(),
        look.now());
  }

  private static Trace failed(
      Look look, Optional<Trace> stored, TraceMetadata metadata, String reason) {
    return trace(
        look.id(),
        TraceState.FAILED,
        reason,
        stored,
        metadata,
        look.snapshot(),
        0,
        List.of(),
        look.now());
  }

  private static Trace trace(
      String id,
      TraceState state,
      String reason,
      Optional<Trace> stored,
      TraceMetadata metadata,
      FolderSnapshot snapshot,
      int kernelCount,
      List<TraceKernel> kernels,
      Instant now) {
    return new Trace(
        id,
        state,
        reason,
        metadata.traceGpuArch(),
        metadata.suggestedSimConfig(),
        metadata.modelName(),
        metadata.tracedLayers(),
        kernelCount,
        kernels,
        snapshot.sizeBytes(),
        metadata.sample(),
        stored.map(Trace::createdAt).orElse(now),
        now);
  }
}
