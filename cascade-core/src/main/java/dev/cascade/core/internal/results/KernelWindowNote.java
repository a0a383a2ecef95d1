package dev.cascade.core.internal.results;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.RunEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * What a config's results say when its entry simulated a kernel window: which of the trace's
 * kernels its rows are, by their positions in the trace's {@code kernelslist.g}.
 */
final class KernelWindowNote {

  private KernelWindowNote() {}

  static ConfigResult add(ConfigResult result, RunEntry entry) {
    KernelWindow window = entry.window().orElseThrow();
    List<String> notes = new ArrayList<>(result.notes());
    notes.add(
        0,
        "kernel window \""
            + window.text()
            + "\": only the trace's kernels "
            + window.positions()
            + " (positions in kernelslist.g) were simulated; per-kernel rows are those kernels in"
            + " that order");
    return new ConfigResult(
        result.gpuConfig(),
        result.arch(),
        result.clockMhz(),
        result.replicas(),
        result.succeeded(),
        result.kernels(),
        result.total(),
        notes,
        result.base(),
        result.params(),
        result.sampling());
  }
}
