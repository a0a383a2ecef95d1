package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What the agent says when it cannot make itself undumpable. The call itself is made in a JVM of
 * its own ({@link UndumpableIT}): made here, it would leave the test JVM undumpable.
 */
final class UndumpableTest {

  @Test
  void apply_elsewhereThanLinux_isNotDoneAndSaysWhy() {
    Undumpable.Result result = Undumpable.apply("Mac OS X");

    assertThat(result.done()).isFalse();
    assertThat(result.reason()).isEqualTo("only Linux has prctl, and this is Mac OS X");
  }

  @Test
  void warning_namesTheReasonTheRiskAndTheWayOut() {
    String warning =
        Undumpable.Result.notDone("only Linux has prctl, and this is Mac OS X").warning();

    assertThat(warning)
        .isEqualTo(
            "could not make this process unreadable to other processes of the same user (only"
                + " Linux has prctl, and this is Mac OS X): a simulator of another sim running as"
                + " this user could read this sim's token in the agent's memory; run sims as a"
                + " user of their own (cascade serve --sim-user USER) to keep them apart");
  }
}
