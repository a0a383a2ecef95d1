package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ConfigSpeedups;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelNames;
import dev.cascade.core.Speedups;
import dev.cascade.core.Spread;
import dev.cascade.core.json.ResultsJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RunsResultsPrintTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MANGLED = "_Z11decode_attnPfi";

  @Test
  void print_ranksADifferenceOutsideTheSpreadAndNotOneInside() throws Exception {
    ConfigResult h100 =
        config("SM90_H100", 1980.0, kernel(MANGLED, 1000, 1010), kernel("k", 500, 500));
    ConfigResult h200 = config("SM90_H200", 1980.0, kernel(MANGLED, 1005), kernel("k", 400));

    String out = printed(List.of(h100, h200), null);

    // decode_attn: 1005 inside 1000..1010; k: 400 against 500, 500: 1.25 times faster; in total
    // 1405 against 1500..1510.
    assertThat(out).containsPattern("SM90_H200\\s+1\\s+1405\\s+.*1.07x faster\\s+1.07x faster");
    assertThat(out).containsPattern("k\\s+1\\s+400\\s+.*1.25x faster\\s+1.25x faster");
    String kernelName =
        KernelNames.system().canDemangle() ? "decode_attn\\(float\\*, int\\)" : MANGLED;
    assertThat(out).containsPattern(kernelName + "\\s+1\\s+1005\\s+.*1.00x same within spread");
  }

  @Test
  void print_againstTheSlowerBaselineCallsTheOtherSlower() throws Exception {
    ConfigResult h100 = config("SM90_H100", 1980.0, kernel("k", 500, 500));
    ConfigResult h200 = config("SM90_H200", 1980.0, kernel("k", 400));

    String out = printed(List.of(h100, h200), "SM90_H200");

    assertThat(out).contains("speedups against SM90_H200");
    assertThat(out).containsPattern("SM90_H100\\s+2\\s+500 \\(all 2 agree\\)\\s+.*0.80x slower");
  }

  private static String printed(List<ConfigResult> configs, String baseline) throws Exception {
    List<ConfigSpeedups> speedups = Speedups.against(configs, baseline);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run_id", "r_1");
    body.put("trace_id", "demo");
    body.put("state", "succeeded");
    body.put("baseline", Speedups.baseline(configs, baseline));
    List<Object> written = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      written.add(ResultsJson.writeConfigResult(configs.get(i), speedups.get(i)));
    }
    body.put("configs", written);
    JsonNode tree = JSON.valueToTree(body);
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      RunsResultsCommand.print(out, tree);
    }
    return text.toString();
  }

  private static ConfigResult config(String name, Double clock, KernelComparison... kernels) {
    List<KernelComparison> list = List.of(kernels);
    int n = list.get(0).n();
    List<Double> totals = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int replica = i;
      totals.add(list.stream().mapToDouble(k -> k.cycles().values().get(replica)).sum());
    }
    Spread cycles = Spread.of(totals);
    KernelComparison total =
        new KernelComparison(
            KernelComparison.TOTAL,
            0,
            list.get(0).replicas(),
            cycles,
            cycles,
            ones(n),
            Spread.of(totals.stream().map(v -> v / clock).toList()));
    return new ConfigResult(name, "sm_90", clock, n, n, list, total, List.of());
  }

  private static KernelComparison kernel(String name, double... values) {
    List<Double> used = java.util.Arrays.stream(values).boxed().toList();
    List<Integer> replicas = java.util.stream.IntStream.range(0, used.size()).boxed().toList();
    return new KernelComparison(
        name,
        0,
        replicas,
        Spread.of(used),
        Spread.of(used),
        ones(used.size()),
        Spread.of(used.stream().map(v -> v / 1980).toList()));
  }

  private static Spread ones(int n) {
    return Spread.of(java.util.Collections.nCopies(n, 1.0));
  }
}
