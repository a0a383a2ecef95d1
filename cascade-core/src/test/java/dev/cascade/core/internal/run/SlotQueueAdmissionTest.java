package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

final class SlotQueueAdmissionTest {

  /** An admission told per sim what to say; anything not told starts. */
  private static final class Told implements SlotQueue.Admission {
    final Map<String, SlotQueue.Verdict> verdicts = new ConcurrentHashMap<>();
    final List<String> released = new ArrayList<>();

    @Override
    public SlotQueue.Verdict admit(String simId, int running) {
      return verdicts.getOrDefault(simId, SlotQueue.Verdict.START);
    }

    @Override
    public synchronized void released(String simId) {
      released.add(simId);
    }
  }

  private final Told admission = new Told();
  private final SlotQueue queue = new SlotQueue(OptionalInt.of(4), admission);
  private final List<String> started = new ArrayList<>();
  private final List<String> refused = new ArrayList<>();

  private void submit(String simId) {
    queue.submit(simId, "r_1", "alice", 0, () -> started.add(simId), refused::add);
  }

  @Test
  void aSimThatMustWait_holdsTheSimsBehindIt_untilARecheckLetsItStart() {
    admission.verdicts.put("s_1", SlotQueue.Verdict.WAIT);
    submit("s_1");
    submit("s_2");
    assertThat(started).isEmpty();
    assertThat(queue.waitingInOrder()).extracting(QueuedSim::simId).containsExactly("s_1", "s_2");

    admission.verdicts.remove("s_1"); // memory was freed
    queue.recheck();

    assertThat(started).containsExactly("s_1", "s_2");
    assertThat(queue.holding()).containsExactlyInAnyOrder("s_1", "s_2");
  }

  @Test
  void aSimThatCanNeverStart_isTakenOutAndRefusedWithTheReason_andTheNextStarts() {
    admission.verdicts.put("s_1", SlotQueue.Verdict.refuse("needs 40 GiB, the machine has 16"));
    submit("s_1");
    submit("s_2");

    assertThat(refused).containsExactly("needs 40 GiB, the machine has 16");
    assertThat(started).containsExactly("s_2");
    assertThat(queue.waitingInOrder()).isEmpty();
    assertThat(admission.released).containsExactly("s_1");
  }

  @Test
  void release_tellsTheAdmission_soWhatTheSimHeldIsNoLongerCounted() {
    submit("s_1");
    queue.release("s_1");
    assertThat(admission.released).containsExactly("s_1");
    assertThat(queue.holding()).isEmpty();
  }
}
