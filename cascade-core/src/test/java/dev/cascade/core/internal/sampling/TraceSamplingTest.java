package dev.cascade.core.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceSamplingTest {

  @TempDir Path dir;

  private static Trace trace(Instant changed) {
    List<TraceKernel> kernels = new ArrayList<>();
    for (int i = 1; i <= 12; i++) {
      kernels.add(
          new TraceKernel(
              i,
              "kernel-" + i + ".traceg",
              i % 2 == 0 ? "gemm" : "norm",
              "8,1,1",
              "128,1,1",
              1000L));
    }
    return new Trace(
        "t",
        TraceState.READY,
        null,
        "sm_90",
        null,
        null,
        List.of(),
        12,
        kernels,
        1,
        false,
        changed,
        changed);
  }

  @Test
  void plan_isMadeOncePerTraceChangeAndRequest_thenKept() {
    Instant first = Instant.parse("2026-12-01T10:00:00Z");
    AtomicReference<Trace> current = new AtomicReference<>(trace(first));
    AtomicInteger countsRead = new AtomicInteger();
    TraceSampling sampling =
        new TraceSampling(
            id -> Optional.of(current.get()),
            id -> {
              countsRead.incrementAndGet(); // making a plan reads the trace's counts file
              return dir;
            });

    SamplingPlan plan = sampling.plan("t", Sampling.of(0.05));
    assertThat(sampling.plan("t", Sampling.of(0.05))).isSameAs(plan);
    assertThat(countsRead).hasValue(1);

    // Another request is another plan; the trace processed again makes a new one.
    assertThat(sampling.plan("t", Sampling.of(0.2))).isNotSameAs(plan);
    current.set(trace(first.plusSeconds(60)));
    SamplingPlan again = sampling.plan("t", Sampling.of(0.05));
    assertThat(again).isNotSameAs(plan).isEqualTo(plan);
    assertThat(countsRead).hasValue(3);
  }
}
