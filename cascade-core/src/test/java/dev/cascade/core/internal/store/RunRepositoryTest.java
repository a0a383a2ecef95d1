package dev.cascade.core.internal.store;

import static dev.cascade.core.internal.store.StoreFixtures.T0;
import static dev.cascade.core.internal.store.StoreFixtures.newRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.Ids;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RunRepositoryTest {

  @TempDir Path dataDir;

  private final StoreFixtures.MutableClock clock = new StoreFixtures.MutableClock(T0);
  private final Ids ids = new Ids(clock);
  private Database database;
  private RunRepository runs;
  private SimRepository sims;

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
    runs = new RunRepository(database);
    sims = new SimRepository(database, clock);
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void insert_storesTheRunAndEverySimAsPending() {
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 4), new RunEntry("SM90_H200", 2));

    runs.insert(run);

    Run stored = runs.find(run.id()).orElseThrow();
    assertThat(stored).isEqualTo(run);
    assertThat(stored.sims()).hasSize(6).allMatch(sim -> sim.state() == SimState.PENDING);
    assertThat(stored.state()).isEqualTo(RunState.ACTIVE);
  }

  @Test
  void insert_keepsEntriesInRequestOrder() {
    Run run =
        newRun(
            ids,
            T0,
            "demo",
            new RunEntry("SM90_H200", 2),
            new RunEntry("SM90_H100", 1),
            new RunEntry("A_CONFIG", 64));

    runs.insert(run);

    assertThat(runs.find(run.id()).orElseThrow().entries())
        .containsExactly(
            new RunEntry("SM90_H200", 2),
            new RunEntry("SM90_H100", 1),
            new RunEntry("A_CONFIG", 64));
  }

  @Test
  void insert_storesNothingWhenOneSimCannotBeWritten() {
    Run first = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 1));
    runs.insert(first);
    // A second run whose last sim reuses the first run's sim id: the primary key refuses it.
    Run second = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 3));
    List<Sim> clashing = new ArrayList<>(second.sims());
    Sim last = clashing.remove(2);
    clashing.add(
        Sim.pending(first.sims().get(0).id(), second.id(), last.gpuConfig(), last.replica(), T0));
    Run broken = new Run(second.id(), "demo", second.entries(), T0, clashing);

    assertThatThrownBy(() -> runs.insert(broken)).isInstanceOf(CascadeException.class);

    assertThat(runs.find(second.id())).isEmpty();
    assertThat(sims.find(second.sims().get(0).id())).isEmpty();
    assertThat(runs.list()).extracting(Run::id).containsExactly(first.id());
  }

  @Test
  void insert_refusesSimsThatAreNotPending() {
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 2));
    List<Sim> launched = List.of(run.sims().get(0).withState(SimState.RUNNING), run.sims().get(1));
    Run broken = new Run(run.id(), "demo", run.entries(), T0, launched);

    assertThatThrownBy(() -> runs.insert(broken))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pending")
        .hasMessageContaining(run.sims().get(0).id());
    assertThat(runs.find(run.id())).isEmpty();
  }

  @Test
  void insert_refusesSimsThatDoNotMatchTheEntries() {
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 2));
    Run missingOne = new Run(run.id(), "demo", run.entries(), T0, run.sims().subList(0, 1));

    assertThatThrownBy(() -> runs.insert(missingOne))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 sims");
  }

  @Test
  void insert_refusesSimsOfAnotherRun() {
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 1));
    Run other = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 1));
    Run broken = new Run(run.id(), "demo", run.entries(), T0, other.sims());

    assertThatThrownBy(() -> runs.insert(broken))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(other.id());
  }

  @Test
  void find_returnsEmptyForAnUnknownRun() {
    assertThat(runs.find("r_00000000000000000000000000")).isEmpty();
  }

  @Test
  void find_ordersSimsByEntryThenReplica() {
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H200", 3), new RunEntry("SM90_H100", 2));
    runs.insert(run);

    assertThat(runs.find(run.id()).orElseThrow().sims())
        .extracting(sim -> sim.gpuConfig() + "#" + sim.replica())
        .containsExactly("SM90_H200#0", "SM90_H200#1", "SM90_H200#2", "SM90_H100#0", "SM90_H100#1");
  }

  @Test
  void find_derivesTheRunStateFromItsSims() {
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 2));
    runs.insert(run);
    for (Sim sim : run.sims()) {
      sims.transition(sim.id(), SimState.CANCELLED);
    }

    assertThat(runs.find(run.id()).orElseThrow().state()).isEqualTo(RunState.CANCELLED);
  }

  @Test
  void list_returnsRunsNewestFirstWithTheirSims() {
    Run oldest = newRun(ids, T0, "a", new RunEntry("SM90_H100", 1));
    Run middle = newRun(ids, T0.plusMillis(500), "b", new RunEntry("SM90_H100", 2));
    Run newest = newRun(ids, T0.plusSeconds(60), "c", new RunEntry("SM90_H100", 3));
    runs.insert(middle);
    runs.insert(newest);
    runs.insert(oldest);

    List<Run> listed = runs.list();

    assertThat(listed).containsExactly(newest, middle, oldest);
  }

  @Test
  void list_withALimit_returnsOnlyTheNewestRuns() {
    List<Run> inserted = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Run run = newRun(ids, T0.plusSeconds(i), "t" + i, new RunEntry("SM90_H100", 2));
      runs.insert(run);
      inserted.add(run);
    }

    assertThat(runs.list(2)).containsExactly(inserted.get(4), inserted.get(3));
    assertThatThrownBy(() -> runs.list(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0");
  }

  @Test
  void list_isEmptyForANewDatabase() {
    assertThat(runs.list()).isEmpty();
  }
}
