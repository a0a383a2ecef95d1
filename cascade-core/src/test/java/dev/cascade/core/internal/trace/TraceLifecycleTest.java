package dev.cascade.core.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.trace.TraceLifecycle.Decision;
import dev.cascade.core.internal.trace.TraceLifecycle.Look;
import dev.cascade.core.internal.trace.TraceProcessor.Facts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceLifecycleTest {

  private static final long QUIET = 1_000;
  private static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");
  private static final Instant T1 = T0.plusSeconds(60);
  private static final TraceMetadata.Read DONE = parsed("done", null);
  private static final Facts ONE_KERNEL =
      new Facts(
          1, List.of(new TraceKernel(1, "kernel-1.traceg", "k", "1,1,1", "32,1,1", null)), false);

  @TempDir Path folder;
  private final TraceLifecycle lifecycle = new TraceLifecycle(QUIET);
  private FolderSnapshot files;

  @BeforeEach
  void writeTrace() throws IOException {
    Files.writeString(folder.resolve("kernel-1.traceg"), "-kernel name = k\n");
    files = FolderSnapshot.take(folder, List.of());
  }

  private static TraceMetadata.Read parsed(String status, String error) {
    return new TraceMetadata.Parsed(
        new TraceMetadata(status, error, "sm_80", null, null, List.of(), false));
  }

  private Look look(Optional<Trace> stored, TraceMetadata.Read metadata, long quietFor) {
    return new Look("t1", stored, files, metadata, false, quietFor, T1);
  }

  private Trace stored(TraceState state) {
    return new Trace(
        "t1",
        state,
        state == TraceState.FAILED ? "bad" : null,
        "sm_80",
        null,
        null,
        List.of(),
        0,
        List.of(),
        files.sizeBytes(),
        false,
        T0,
        T0);
  }

  @Test
  void needsDecision_notWhileProcessingNorForTemporaryFilesAlone() throws IOException {
    Path temporary = Files.createDirectory(folder.resolve("only-temporary"));
    Files.writeString(temporary.resolve("part.partial"), "x");
    FolderSnapshot onlyTemporary = FolderSnapshot.take(temporary, List.of());

    assertThat(TraceLifecycle.needsDecision(true, Optional.empty(), files)).isFalse();
    assertThat(TraceLifecycle.needsDecision(false, Optional.empty(), onlyTemporary)).isFalse();
    assertThat(TraceLifecycle.needsDecision(false, Optional.empty(), files)).isTrue();
  }

  @Test
  void decide_withoutMetadata_staysUploading() {
    Decision decision = lifecycle.decide(look(Optional.empty(), new TraceMetadata.Absent(), 0));

    assertThat(decision.saves()).extracting(Trace::state).containsExactly(TraceState.UPLOADING);
    assertThat(decision.saves().get(0).createdAt()).isEqualTo(T1);
    assertThat(decision.checkInNanos()).isNegative();
    assertThat(decision.process()).isEmpty();
  }

  @Test
  void decide_metadataDoneBeforeTheQuietPeriod_checksAgainWhenItEnds() {
    Decision decision = lifecycle.decide(look(Optional.empty(), DONE, 400));

    assertThat(decision.saves()).extracting(Trace::state).containsExactly(TraceState.UPLOADING);
    assertThat(decision.checkInNanos()).isEqualTo(600);
    assertThat(decision.process()).isEmpty();
  }

  @Test
  void decide_metadataDoneAndQuiet_processes() {
    Decision decision =
        lifecycle.decide(look(Optional.of(stored(TraceState.UPLOADING)), DONE, QUIET));

    assertThat(decision.saves()).isEmpty();
    assertThat(decision.process()).get().extracting(Trace::state).isEqualTo(TraceState.PROCESSING);
    assertThat(decision.process().get().createdAt()).as("kept from the stored trace").isEqualTo(T0);
  }

  @Test
  void decide_metadataSaysFailed_failsWithTheProfilersError() {
    Decision decision = lifecycle.decide(look(Optional.empty(), parsed("failed", "OOM"), 0));

    assertThat(decision.saves())
        .singleElement()
        .satisfies(
            trace -> {
              assertThat(trace.state()).isEqualTo(TraceState.FAILED);
              assertThat(trace.reason()).isEqualTo("OOM");
            });
  }

  @Test
  void decide_invalidMetadataAfterTheQuietPeriod_fails() {
    Decision decision =
        lifecycle.decide(look(Optional.empty(), new TraceMetadata.Invalid("line 1: bad"), QUIET));

    assertThat(decision.saves())
        .singleElement()
        .satisfies(
            trace -> {
              assertThat(trace.state()).isEqualTo(TraceState.FAILED);
              assertThat(trace.reason()).isEqualTo("line 1: bad");
            });
  }

  @Test
  void decide_stillProcessingAfterARestart_processesAgain() {
    Decision decision = lifecycle.decide(look(Optional.of(stored(TraceState.PROCESSING)), DONE, 0));

    assertThat(decision.saves()).isEmpty();
    assertThat(decision.process()).isPresent();
  }

  @Test
  void decide_readyTrace_staysReadyUntilItsFilesChange() {
    Trace ready = stored(TraceState.READY);

    assertThat(lifecycle.decide(look(Optional.of(ready), DONE, QUIET))).isEqualTo(Decision.NOTHING);

    Decision changed =
        lifecycle.decide(new Look("t1", Optional.of(ready), files, DONE, true, 0, T1));
    // Back to uploading, then (the same facts again, not stored twice) waiting for quiet.
    assertThat(changed.saves()).isNotEmpty();
    assertThat(changed.saves()).extracting(Trace::state).containsOnly(TraceState.UPLOADING);
    assertThat(changed.saves().get(0).createdAt()).isEqualTo(T0);
    assertThat(changed.checkInNanos()).isEqualTo(QUIET);
  }

  @Test
  void decide_changedFailedTraceWhoseMetadataStillSaysFailed_staysFailed() {
    Decision decision =
        lifecycle.decide(
            new Look(
                "t1",
                Optional.of(stored(TraceState.FAILED)),
                files,
                parsed("failed", "again"),
                true,
                QUIET,
                T1));

    assertThat(decision.saves()).extracting(Trace::reason).containsExactly("again");
    assertThat(decision.process()).isEmpty();
  }

  @Test
  void afterProcessing_withoutKernelslist_fails() {
    Trace trace =
        TraceLifecycle.afterProcessing(
            "t1",
            Optional.of(stored(TraceState.PROCESSING)),
            TraceMetadata.none(),
            files,
            ONE_KERNEL,
            null,
            T1);

    assertThat(trace.state()).isEqualTo(TraceState.FAILED);
    assertThat(trace.reason()).contains(TraceLifecycle.KERNELSLIST_G);
  }

  @Test
  void afterProcessing_withKernelslist_isReadyWithTheFacts() throws IOException {
    Files.createDirectories(folder.resolve("traces"));
    Files.writeString(folder.resolve(TraceLifecycle.KERNELSLIST_G), "kernel-1.traceg\n");
    FolderSnapshot processed = FolderSnapshot.take(folder, List.of());

    Trace trace =
        TraceLifecycle.afterProcessing(
            "t1",
            Optional.of(stored(TraceState.PROCESSING)),
            TraceMetadata.none(),
            processed,
            ONE_KERNEL,
            null,
            T1);

    assertThat(trace.state()).isEqualTo(TraceState.READY);
    assertThat(trace.kernelCount()).isEqualTo(1);
    assertThat(trace.createdAt()).isEqualTo(T0);
    assertThat(TraceLifecycle.changedWhileDown(trace, processed)).isFalse();
    assertThat(TraceLifecycle.changedWhileDown(trace, files)).as("kernelslist.g gone").isTrue();
  }

  @Test
  void kernels_isSingularForOne() {
    assertThat(TraceLifecycle.kernels(1)).isEqualTo("1 kernel");
    assertThat(TraceLifecycle.kernels(5)).isEqualTo("5 kernels");
  }
}
