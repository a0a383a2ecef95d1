package dev.cascade.core.internal.trace;

import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.agent.emulator.PrecomputedCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of processing a trace: the emulator's per-kernel counts, computed once here and
 * kept beside {@code traces/kernelslist.g} ({@link PrecomputedCounts}), instead of by every sim as
 * it starts. It wraps the processor that makes the trace runnable; counts that cannot be made leave
 * the trace ready, and its sims count for themselves as before.
 */
final class EmulatorCountsStep implements TraceProcessor {

  private static final Logger log = LoggerFactory.getLogger(EmulatorCountsStep.class);

  private final TraceProcessor processor;

  EmulatorCountsStep(TraceProcessor processor) {
    this.processor = processor;
  }

  @Override
  public Facts process(Path traceFolder) throws TraceProcessingException {
    Path list = traceFolder.resolve(TraceLayout.TRACES_FOLDER).resolve(TraceLayout.PROCESSED_LIST);
    Path counts = PrecomputedCounts.fileFor(list);
    try {
      // A re-upload's old counts must not outlive the files they were made from.
      Files.deleteIfExists(counts);
    } catch (IOException e) {
      log.warn("cannot remove the old emulator counts {}: {}", counts, e.toString());
    }
    Facts facts = processor.process(traceFolder);
    try {
      long start = System.nanoTime();
      PrecomputedCounts.write(list);
      log.info(
          "emulator counts for {} written in {} ms",
          traceFolder.getFileName(),
          (System.nanoTime() - start) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      // The emulator would say the same when a sim runs; a real simulator may not mind.
      log.warn("no emulator counts for {}: {}", traceFolder.getFileName(), e.toString());
    }
    return facts;
  }
}
