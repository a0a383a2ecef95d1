package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.FailureClass;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.Provenance;
import dev.cascade.core.Sim;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a sim that say which attempt it is, what it simulated, what produced its numbers
 * and why it failed: {@code attempt}, {@code kernels}, {@code simulated_kernels}, {@code
 * failure_class}, {@code reused_from} and {@code provenance}, written and read in one place.
 */
final class SimFields {

  private SimFields() {}

  static void write(Sim sim, Map<String, Object> fields) {
    fields.put("attempt", sim.attempt());
    fields.put("kernels", sim.kernels());
    fields.put(
        "simulated_kernels",
        sim.kernels() == null ? null : KernelWindow.parse(sim.kernels()).positions());
    fields.put("failure_class", sim.failureClass() == null ? null : sim.failureClass().wireName());
    Provenance provenance = sim.provenance();
    fields.put("reused_from", provenance.reusedFrom());
    Map<String, Object> produced = new LinkedHashMap<>();
    produced.put("trace_hash", provenance.traceHash());
    produced.put("config_hash", provenance.configHash());
    produced.put("simulator", provenance.simulator());
    produced.put("accelsim_build", provenance.accelSimBuild());
    produced.put("gpgpusim_build", provenance.gpgpuSimBuild());
    produced.put("accelsim_version", provenance.accelSimVersion());
    produced.put("gpgpusim_version", provenance.gpgpuSimVersion());
    fields.put("provenance", produced);
  }

  static FailureClass failureClass(String wireName) {
    return wireName == null ? null : FailureClass.fromWireName(wireName);
  }

  /** The provenance object, and {@code reused_from} beside it in the sim. */
  static Provenance provenance(JsonNode node, String reusedFrom) {
    if (!node.isObject()) {
      return Provenance.UNKNOWN.withReusedFrom(reusedFrom);
    }
    List<String> values =
        List.of(
                "trace_hash",
                "config_hash",
                "simulator",
                "accelsim_build",
                "gpgpusim_build",
                "accelsim_version",
                "gpgpusim_version")
            .stream()
            .map(key -> node.path(key).isTextual() ? node.path(key).textValue() : "")
            .toList();
    return new Provenance(
        orNull(values.get(0)),
        orNull(values.get(1)),
        orNull(values.get(2)),
        orNull(values.get(3)),
        orNull(values.get(4)),
        reusedFrom,
        orNull(values.get(5)),
        orNull(values.get(6)));
  }

  private static String orNull(String value) {
    return value.isEmpty() ? null : value;
  }
}
