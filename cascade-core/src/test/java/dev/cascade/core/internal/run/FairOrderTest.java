package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class FairOrderTest {

  private final FairOrder order = new FairOrder();
  private long seq;

  private void queue(String owner, String run, int priority, int count) {
    for (int i = 0; i < count; i++) {
      order.add(new QueuedSim(run + "-" + i, run, owner, priority, seq++));
    }
  }

  private List<String> drain(int n) {
    List<String> picked = new ArrayList<>();
    for (int i = 0; i < n && !order.isEmpty(); i++) {
      picked.add(order.next().simId());
    }
    return picked;
  }

  @Test
  void next_alternatesOwnersSoALaterSingleSimIsNotStarvedByABigBatch() {
    queue("alice", "big", 0, 64);
    queue("bob", "one", 0, 1);

    assertThat(drain(3)).containsExactly("big-0", "one-0", "big-1");
  }

  @Test
  void next_alternatesTheRunsOfOneOwnerAndKeepsEachRunsOrder() {
    queue("alice", "a", 0, 3);
    queue("alice", "b", 0, 2);

    assertThat(drain(5)).containsExactly("a-0", "b-0", "a-1", "b-1", "a-2");
  }

  @Test
  void next_startsHigherPriorityFirstWhateverTheOwner() {
    queue("alice", "low", 0, 2);
    queue("bob", "urgent", 5, 2);
    queue("carol", "lowest", -1, 1);

    assertThat(drain(5)).containsExactly("urgent-0", "urgent-1", "low-0", "low-1", "lowest-0");
  }

  @Test
  void next_remembersWhoWasServedAcrossNewArrivals() {
    queue("alice", "big", 0, 4);
    assertThat(drain(2)).containsExactly("big-0", "big-1");
    queue("bob", "late", 0, 2);

    assertThat(drain(4)).containsExactly("late-0", "big-2", "late-1", "big-3");
  }

  @Test
  void inOrder_previewsWhatNextWouldGiveWithoutTakingAnything() {
    queue("alice", "big", 0, 3);
    queue("bob", "one", 0, 1);
    order.next();

    List<String> preview = order.inOrder().stream().map(QueuedSim::simId).toList();

    assertThat(preview).containsExactly("one-0", "big-1", "big-2");
    assertThat(order.size()).isEqualTo(3);
    assertThat(drain(3)).isEqualTo(preview);
  }

  @Test
  void remove_takesAWaitingSimOutOfTheQueue() {
    queue("alice", "a", 0, 2);
    queue("bob", "b", 0, 1);

    assertThat(order.remove("b-0")).isTrue();
    assertThat(order.remove("b-0")).isFalse();

    assertThat(drain(3)).containsExactly("a-0", "a-1");
  }
}
