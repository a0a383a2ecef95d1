package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.Provenance;
import dev.cascade.core.Run;
import dev.cascade.core.RunComparisons;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.Spread;
import dev.cascade.core.json.CompareJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@code cascade runs compare} prints a change outside the spread and one inside it. */
final class RunsComparePrintTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
  private static final double CLOCK = 1980.0;

  @Test
  void print_ranksAChangeOutsideTheSpreadAndNotOneInside() throws Exception {
    Run before = run("r_A", "accelsim-commit-aaaa");
    Run after = run("r_B", "accelsim-commit-bbbb");
    ConfigResult base = config(kernel("k_a", 1000, 1010), kernel("k_b", 500, 500));
    ConfigResult other = config(kernel("k_a", 800, 810), kernel("k_b", 495, 505));

    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      RunsCompareCommand.print(
          out,
          JSON.valueToTree(
              CompareJson.write(
                  RunComparisons.of(
                      List.of(before, after), List.of(List.of(base), List.of(other))))));
    }
    String printed = text.toString();

    assertThat(printed)
        .contains("r_B against r_A:")
        .contains("SM90_H100: differs: simulator build")
        .containsPattern(
            "k_a\\s+1005\\s+805\\s+-200 \\(-19\\.9%\\) 1\\.25x faster\\s+2\\.985 -> 3\\.727\\s+"
                + "\\+0\\.742 \\(\\+24\\.8%\\) higher")
        .containsPattern("k_b\\s+500\\s+500\\s+\\+0 \\(\\+0\\.0%\\) 1\\.00x same within spread")
        .containsPattern("total\\s+1505\\s+1305\\s+-200 \\(-13\\.3%\\) 1\\.15x faster");
  }

  private static Run run(String id, String build) {
    List<Sim> sims = new ArrayList<>();
    for (int replica = 0; replica < 2; replica++) {
      sims.add(
          Sim.pending("s_" + id + replica, id, "SM90_H100", replica, T0)
              .withState(SimState.SUCCEEDED)
              .withProvenance(
                  new Provenance("sha256:t", "sha256:c", "sha256:sim", build, null, null)));
    }
    return new Run(id, "demo", List.of(new RunEntry("SM90_H100", 2)), T0, sims);
  }

  /** Two replicas of a kernel of 3000 instructions with these cycles. */
  private static KernelComparison kernel(String name, double first, double second) {
    return comparison(name, first, second, 3000);
  }

  private static KernelComparison comparison(
      String name, double first, double second, double instructions) {
    return new KernelComparison(
        name,
        0,
        List.of(0, 1),
        Spread.of(first, second),
        Spread.of(instructions, instructions),
        Spread.of(instructions / first, instructions / second),
        Spread.of(first / CLOCK, second / CLOCK));
  }

  private static ConfigResult config(KernelComparison a, KernelComparison b) {
    double first = a.cycles().values().get(0) + b.cycles().values().get(0);
    double second = a.cycles().values().get(1) + b.cycles().values().get(1);
    return new ConfigResult(
        "SM90_H100",
        "sm_90",
        CLOCK,
        2,
        2,
        List.of(a, b),
        comparison(KernelComparison.TOTAL, first, second, 6000),
        List.of());
  }
}
