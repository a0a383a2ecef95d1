package dev.cascade.examples;

import dev.cascade.core.Cascade;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.Traces;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * How the examples start Cascade in a program, with two helpers every embedder needs around it:
 * writing the demo trace, and waiting until a trace is ready to run.
 */
public final class EmbeddedCascade {

  private EmbeddedCascade() {}

  // tag::start[]
  /**
   * Starts Cascade in {@code dataDir}, set up by {@code environment} as {@code cascade serve} is:
   * {@code CASCADE_ACCELSIM_DIR} for a real Accel-Sim (else the emulator), {@code
   * CASCADE_EMULATE_SPEED}, {@code CASCADE_UPLOAD_QUIET_S}, ... Close it when done; sims still
   * running keep running and report again after the next start on the same data dir.
   */
  public static Cascade start(Path dataDir, Map<String, String> environment) {
    return Cascade.builder()
        .fromEnvironment(environment) // CASCADE_* settings, GPU configs, emulator or Accel-Sim
        .dataDir(dataDir)
        .launcher(new LocalLauncher()) // each sim a local process
        .simEnvironment(environment) // what sims see besides Cascade's own variables
        .build()
        .start(); // with its HTTP server on a free port of 127.0.0.1: sims report there
  }

  // end::start[]

  /**
   * Writes Cascade's demo trace (five kernels of one decoder layer's self-attention, {@code sm_90})
   * into a data dir that has no traces yet, as {@code cascade serve} does for a new one.
   */
  public static void seedDemoTrace(Path dataDir) throws IOException {
    DemoTraces.seedIfEmpty(dataDir);
  }

  /**
   * Waits until trace {@code id} is ready to run: a trace's files must have been still for the
   * upload quiet period, then it is processed.
   *
   * @throws IllegalStateException when it failed, or is not ready within {@code timeout}
   */
  public static Trace awaitReady(Traces traces, String id, Duration timeout)
      throws InterruptedException {
    Trace trace = traces.await(id, timeout);
    if (trace.state() == TraceState.FAILED) {
      throw new IllegalStateException("trace \"" + id + "\" failed: " + trace.reason());
    }
    if (trace.state() != TraceState.READY) {
      throw new IllegalStateException(
          "trace \""
              + id
              + "\" is not ready after "
              + timeout.toSeconds()
              + " s; it is "
              + trace.state().wireName());
    }
    return trace;
  }
}
