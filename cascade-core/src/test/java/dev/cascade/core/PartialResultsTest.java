package dev.cascade.core;

import static dev.cascade.core.ResultsFixture.sim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cascade.core.ResultsFixture.K;
import dev.cascade.core.json.ResultsJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's results while some of its sims have finished and others are still running. */
final class PartialResultsTest {

  private static final String H100 = "SM90_H100";

  @TempDir Path dataDir;
  private ResultsFixture fixture;
  private Run run;

  @BeforeEach
  void aRunWithOneSucceededOneRunningAndOnePendingSim() {
    fixture = new ResultsFixture(dataDir);
    run = fixture.newRun("demo", Provenance.UNKNOWN, new RunEntry(H100, 3));
    fixture.succeed(
        run, sim(run, H100, 0), null, new K("k_a", 1000, 3000), new K("k_b", 500, 1000));
    fixture.running(run, sim(run, H100, 1), null, new K("k_a", 1100, 3300));
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void compare_countsARunningReplicasFinishedKernelsPerKernelButNotInTheTotal() {
    ConfigResult h100 = fixture.results.compare(run.id()).get(0);

    KernelComparison first = h100.kernel("k_a", 0).orElseThrow();
    assertThat(first.replicas()).containsExactly(0, 1);
    assertThat(first.cycles().values()).containsExactly(1000.0, 1100.0);
    assertThat(h100.kernel("k_b", 0).orElseThrow().replicas()).containsExactly(0);
    assertThat(h100.succeeded()).isEqualTo(1);
    assertThat(h100.total().replicas()).as("only the succeeded replica's sum").containsExactly(0);
    assertThat(h100.total().cycles().values()).containsExactly(1500.0);
    assertThat(h100.notes())
        .contains(
            "replicas 1, 2 still to finish: the 1 kernel finished so far counts in the kernel"
                + " rows, not in the total");
  }

  @Test
  void partial_saysWhichSimsAndHowManyKernelsAreStillToCome() {
    PartialResults partial = PartialResults.of(fixture.reload(run));

    assertThat(partial.partial()).isTrue();
    assertThat(partial.sims()).isEqualTo(3);
    assertThat(partial.simsFinished()).isEqualTo(1);
    assertThat(partial.kernelsDone()).isEqualTo(3);
    assertThat(partial.toCome())
        .extracting(
            PartialResults.SimToCome::replica,
            PartialResults.SimToCome::state,
            PartialResults.SimToCome::kernelsDone)
        .containsExactly(tuple(1, SimState.RUNNING, 1), tuple(2, SimState.PENDING, 0));
    assertThat(partial.summary())
        .startsWith("partial: 1 of 3 sims finished, 3 of ")
        .endsWith("kernels done; still to come: SM90_H100 replicas 1, 2");
  }

  @Test
  @SuppressWarnings("unchecked")
  void resultsJson_marksTheResultsPartialWithWhatIsToCome() {
    Run now = fixture.reload(run);
    Map<String, Object> json = ResultsJson.writeResults(now, fixture.results.compare(run.id()));

    assertThat(json).containsEntry("state", "active").containsEntry("partial", true);
    Map<String, Object> progress = (Map<String, Object>) json.get("progress");
    assertThat(progress).containsEntry("sims", 3).containsEntry("sims_finished", 1);
    assertThat((List<Map<String, Object>>) progress.get("to_come"))
        .extracting(sim -> sim.get("sim_id"), sim -> sim.get("state"))
        .containsExactly(tuple(sim(run, H100, 1), "running"), tuple(sim(run, H100, 2), "pending"));
  }

  @Test
  void finished_onlySucceededReplicasCountAndNothingIsToCome() {
    fixture.sims.transition(sim(run, H100, 1), SimState.FAILED);
    fixture.sims.transition(sim(run, H100, 2), SimState.CANCELLED);

    ConfigResult h100 = fixture.results.compare(run.id()).get(0);
    PartialResults partial = PartialResults.of(fixture.reload(run));

    assertThat(h100.kernel("k_a", 0).orElseThrow().replicas())
        .as("a failed replica's kernels do not count once it has finished")
        .containsExactly(0);
    assertThat(h100.notes()).noneMatch(note -> note.contains("still to finish"));
    assertThat(partial.partial()).isFalse();
    assertThat(partial.toCome()).isEmpty();
    assertThat(partial.summary()).isEqualTo("final: every sim has finished");
    assertThat(ResultsJson.writeResults(fixture.reload(run), List.of(h100)))
        .containsEntry("partial", false);
  }
}
