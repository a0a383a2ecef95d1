package dev.cascade.core;

import dev.cascade.core.internal.demo.DemoTraceSeeder;
import dev.cascade.core.internal.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The small traces Cascade ships: {@value #DEMO_ID}, runnable (one decoder layer's self-attention,
 * five kernels, {@code sm_90}), and {@value #SAMPLE_ID}, to browse only. {@code cascade serve}
 * seeds them into a new data dir.
 */
public final class DemoTraces {

  /** The runnable demo trace. */
  public static final String DEMO_ID = DemoTraceSeeder.DEMO_ID;

  /** The sample trace: it can be browsed but never run. */
  public static final String SAMPLE_ID = DemoTraceSeeder.SAMPLE_ID;

  private DemoTraces() {}

  /**
   * Writes both traces into the traces folder of {@code dataDir} when it holds no trace yet; they
   * are then processed like any upload. Returns the ids written; empty when there were traces.
   */
  public static List<String> seedIfEmpty(Path dataDir) throws IOException {
    return DemoTraceSeeder.seedIfEmpty(TraceStore.tracesFolder(dataDir));
  }
}
