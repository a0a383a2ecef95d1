package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.internal.run.MemoryAdmission.Decision;
import dev.cascade.core.internal.run.MemoryAdmission.Predictions;
import dev.cascade.core.internal.run.MemoryAdmission.Running;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class MemoryAdmissionTest {

  private static final long GIB = 1024L * 1024 * 1024;

  /** 16 GiB of memory, 2 GiB kept back. */
  private final MemoryAdmission admission = new MemoryAdmission(16 * GIB, 2 * GIB);

  @Test
  void decide_startsASimThatFitsTheFreeMemoryLessTheReserve() {
    assertThat(admission.decide(4 * GIB, 10 * GIB, List.of()))
        .isEqualTo(new Decision.Start(4 * GIB));
  }

  @Test
  void decide_waitsWhenTheReserveWouldBeTouched() {
    assertThat(admission.decide(4 * GIB, 5 * GIB, List.of()))
        .isEqualTo(new Decision.Wait(4 * GIB, 3 * GIB));
  }

  @Test
  void decide_countsWhatRunningSimsAreStillExpectedToGrowBy() {
    // 12 GiB free, but a running sim predicted at 6 GiB holds only 1 GiB yet: 5 GiB more to come.
    List<Running> running = List.of(new Running(6 * GIB, GIB));
    assertThat(admission.decide(6 * GIB, 12 * GIB, running))
        .isEqualTo(new Decision.Wait(6 * GIB, 5 * GIB));
    assertThat(admission.decide(5 * GIB, 12 * GIB, running)).isEqualTo(new Decision.Start(5 * GIB));
    // A sim already past its prediction is not expected to give any back, nor to grow.
    assertThat(admission.decide(6 * GIB, 12 * GIB, List.of(new Running(6 * GIB, 7 * GIB))))
        .isEqualTo(new Decision.Start(6 * GIB));
  }

  @Test
  void decide_withASimsLimit_countsWhatRunningSimsHold_andRefusesASimAboveTheLimit() {
    // 16 GiB free on the machine, but the sims may hold 3 GiB together.
    MemoryAdmission limited = new MemoryAdmission(16 * GIB, 0, 3 * GIB);
    List<Running> oneRunning = List.of(new Running(GIB, GIB));
    assertThat(limited.decide(2 * GIB, 15 * GIB, oneRunning))
        .isEqualTo(new Decision.Start(2 * GIB));
    assertThat(limited.decide(2 * GIB + 1, 15 * GIB, oneRunning))
        .isEqualTo(new Decision.Wait(2 * GIB + 1, 2 * GIB));
    Decision never = limited.decide(4 * GIB, 16 * GIB, List.of());
    assertThat(never).isInstanceOf(Decision.Never.class);
    assertThat(((Decision.Never) never).reason())
        .isEqualTo(
            "needs about 4096 MiB at its peak (predicted), more than this machine can give a sim:"
                + " the sims' memory limit is 3072 MiB");
  }

  @Test
  void new_refusesALimitThatIsNotPositive() {
    assertThatThrownBy(() -> new MemoryAdmission(16 * GIB, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the sims' memory limit must be positive; got 0");
  }

  @Test
  void decide_onALimitThatFitsTwo_startsTwoAndHoldsTheThird() {
    MemoryAdmission twoFit = new MemoryAdmission(4 * GIB, GIB);
    long sim = GIB + GIB / 4; // 1.25 GiB: two fit in 3 GiB, three do not
    List<Running> running = new ArrayList<>();
    long available = 4 * GIB;
    int started = 0;
    for (int i = 0; i < 3; i++) {
      if (twoFit.decide(sim, available, running) instanceof Decision.Start) {
        running.add(new Running(sim, 0)); // started: nothing resident yet
        started++;
      }
    }
    assertThat(started).isEqualTo(2);
  }

  @Test
  void decide_refusesASimThatCanNeverFit_withTheFigures() {
    Decision decision = admission.decide(15 * GIB, 15 * GIB, List.of());
    assertThat(decision).isInstanceOf(Decision.Never.class);
    Decision.Never never = (Decision.Never) decision;
    assertThat(never.limitBytes()).isEqualTo(14 * GIB);
    assertThat(never.reason())
        .contains("15360 MiB")
        .contains("16384 MiB of memory less the 2048 MiB reserve is 14336 MiB");
  }

  @Test
  void constructor_refusesAReserveAsLargeAsTheMachine() {
    assertThatThrownBy(() -> new MemoryAdmission(GIB, GIB))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reserve (1024 MiB)")
        .hasMessageContaining("lower the reserve");
    assertThatThrownBy(() -> admission.decide(-1, GIB, List.of()))
        .hasMessageContaining("predictedBytes cannot be negative; got -1");
  }

  @Test
  void predictions_sameTraceAndConfig_thenSameTrace_thenAGuessFromTheTracesSize() {
    Predictions predictions = new Predictions();
    MemoryAdmission.Prediction guess = predictions.predict("llm", "SM90_H100", 100 * 1024 * 1024);
    assertThat(guess.bytes())
        .isEqualTo(Predictions.BASE_BYTES + Predictions.PER_TRACE_BYTE * 100L * 1024 * 1024);
    assertThat(guess.basis()).contains("first guess").contains("100 MiB");

    predictions.learn("llm", "SM90_H100", 3 * GIB);
    assertThat(predictions.predict("llm", "SM90_H100", 0).bytes()).isEqualTo(3 * GIB);
    assertThat(predictions.predict("llm", "SM86_RTX3070", 0))
        .isEqualTo(
            new MemoryAdmission.Prediction(3 * GIB, "earlier sims of this trace on other configs"));

    predictions.learn("llm", "SM86_RTX3070", 2 * GIB);
    assertThat(predictions.predict("llm", "SM86_RTX3070", 0).bytes()).isEqualTo(2 * GIB);
    predictions.learn("llm", "SM90_H100", GIB); // a smaller peak later: the largest still counts
    assertThat(predictions.predict("llm", "SM90_H100", 0).bytes()).isEqualTo(3 * GIB);
  }
}
