package dev.cascade.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.SimState;
import dev.cascade.core.Spread;
import dev.cascade.core.TraceState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Experiment}'s flow and messages, against a backend the test scripts. */
final class ExperimentTest {

  private final FakeBackend backend = new FakeBackend();
  private final Experiment experiment = new Experiment(backend, Duration.ofSeconds(5));

  @Test
  void entries_configWithAndWithoutCount() {
    assertThat(Experiment.entries("SM90_H100:3", "SM90_H200", " SM80_A100 : 2 "))
        .containsExactly(
            new RunEntry("SM90_H100", 3),
            new RunEntry("SM90_H200", 1),
            new RunEntry("SM80_A100", 2));
  }

  @Test
  void entries_malformed_nameTheValueAndTheForm() {
    assertThatThrownBy(() -> Experiment.entries("SM90_H100:x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "a run entry must be CONFIG or CONFIG:COUNT, such as \"SM90_H100:3\"; got"
                + " \"SM90_H100:x\"");
    assertThatThrownBy(() -> Experiment.entries(":3")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Experiment.entries())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one GPU config");
    assertThatThrownBy(() -> Experiment.entries("SM90_H100:65"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("count for \"SM90_H100\" must be a whole number from 1 to 64; got 65");
    assertThatThrownBy(() -> Experiment.entries("SM90_H100:99999999999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a whole number from 1 to 64");
  }

  @Test
  void run_succeeded_returnsTheResultsPerConfig() {
    backend.finalState = RunState.SUCCEEDED;

    ExperimentRun run = experiment.run("demo", "SM90_H100:2");

    assertThat(backend.created).containsExactly(List.of(new RunEntry("SM90_H100", 2)));
    assertThat(run.id()).isEqualTo("r_1");
    assertThat(run.state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(run.config("SM90_H100").succeeded()).isEqualTo(2);
    assertThat(backend.cancelled).isEmpty();
  }

  @Test
  void run_someSimsFailed_throwsWithEachFailureItsLogAndTheResults() {
    backend.finalState = RunState.PARTIAL;
    backend.sims =
        List.of(
            sim(0, SimState.SUCCEEDED, null, List.of()),
            sim(1, SimState.FAILED, "the simulator failed with exit code 1", List.of("deadlock")));

    assertThatThrownBy(() -> experiment.run("demo", "SM90_H100:2"))
        .isInstanceOfSatisfying(
            ExperimentException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
              assertThat(e.run()).hasValueSatisfying(r -> assertThat(r.id()).isEqualTo("r_1"));
            })
        .hasMessage(
            "run r_1 of trace \"demo\" ended partial: 1 of 2 sims did not succeed:\n"
                + "  SM90_H100 replica 1 (s_1): failed, kernels 2/5, the simulator failed with exit"
                + " code 1\n"
                + "    | deadlock");
  }

  @Test
  void run_notFinishedInTime_cancelsTheRunAndListsItsSims() {
    backend.finalState = RunState.ACTIVE;
    backend.sims = List.of(sim(0, SimState.RUNNING, null, List.of()));

    assertThatThrownBy(() -> experiment.run("demo", "SM90_H100"))
        .isInstanceOfSatisfying(
            ExperimentException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
              assertThat(e.run()).isEmpty();
            })
        .hasMessageStartingWith("run r_1 of trace \"demo\" did not finish within 5 s and was")
        .hasMessageEndingWith("  SM90_H100 replica 0 (s_0): running, kernels 2/5");
    assertThat(backend.cancelled).containsExactly("r_1");
  }

  @Test
  void run_traceStillProcessing_saysSoAndCreatesNoRun() {
    backend.trace = new Backend.TraceStatus("big", TraceState.PROCESSING, null, false);

    assertThatThrownBy(
            () -> experiment.withTimeout(Duration.ofMillis(1500)).run("big", "SM90_H100"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
              assertThat(e.field()).isEqualTo("trace_id");
            })
        .hasMessageStartingWith("trace \"big\" is still processing after 1500 ms");
    assertThat(backend.awaitedFor).containsExactly(Duration.ofMillis(1500));
    assertThat(backend.created).isEmpty();
  }

  @Test
  void run_invalidTraceId_namesTheRule() {
    assertThatThrownBy(() -> experiment.run("../etc", "SM90_H100"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("trace id \"../etc\" is not valid");
  }

  @Test
  void withTimeout_mustBePositive() {
    assertThatThrownBy(() -> experiment.withTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the timeout must be positive; got PT0S");
    assertThat(experiment.withTimeout(Duration.ofMinutes(1)).timeout())
        .isEqualTo(Duration.ofMinutes(1));
    assertThat(experiment).hasToString("Experiment on a fake Cascade, timeout 5 s");
  }

  // ---------------------------------------------------------------------------------------------

  private static Backend.SimStatus sim(
      int replica, SimState state, String error, List<String> log) {
    return new Backend.SimStatus("s_" + replica, "SM90_H100", replica, state, error, 2, 5, log);
  }

  /** A backend whose answers the test sets; it records what it was asked. */
  private static final class FakeBackend implements Backend {
    TraceStatus trace = new TraceStatus("demo", TraceState.READY, null, false);
    RunState finalState = RunState.SUCCEEDED;
    List<SimStatus> sims = List.of();
    final List<List<RunEntry>> created = new ArrayList<>();
    final List<String> cancelled = new ArrayList<>();
    final List<Duration> awaitedFor = new ArrayList<>();

    @Override
    public String describe() {
      return "a fake Cascade";
    }

    @Override
    public Optional<TraceStatus> trace(String id) {
      return Optional.of(trace);
    }

    @Override
    public Optional<TraceStatus> awaitTrace(String id, Duration timeout) {
      awaitedFor.add(timeout);
      return Optional.of(trace);
    }

    @Override
    public List<String> traceIds() {
      return List.of(trace.id());
    }

    @Override
    public String create(String traceId, List<RunEntry> entries) {
      created.add(entries);
      return "r_" + created.size();
    }

    @Override
    public RunStatus await(String runId, Duration timeout) {
      return new RunStatus(runId, "demo", finalState, sims);
    }

    @Override
    public List<ConfigResult> results(String runId) {
      KernelComparison total =
          new KernelComparison(
              KernelComparison.TOTAL,
              0,
              List.of(0, 1),
              Spread.of(100, 110),
              Spread.of(400, 400),
              Spread.of(4, 3.64),
              Spread.of(0.05, 0.055));
      return List.of(
          new ConfigResult("SM90_H100", "sm_90", 1980.0, 2, 2, List.of(), total, List.of()));
    }

    @Override
    public void cancel(String runId) {
      cancelled.add(runId);
    }
  }
}
