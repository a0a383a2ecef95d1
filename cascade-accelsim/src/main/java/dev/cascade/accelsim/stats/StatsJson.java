package dev.cascade.accelsim.stats;

import java.io.IOException;
import java.io.Writer;
import java.util.Objects;

/**
 * The {@code cascade stats --json} document (DESIGN.md section 14), streamed kernel by kernel so
 * memory stays small whatever the log size:
 *
 * <pre>{@code
 * {"files": [{"file": ..., "build": {"accel_sim": ..., "gpgpu_sim": ...}, "kernels": [{"name":
 * ..., "uid": n, "instance": i, "cycles": n, "instructions": n, "ipc": x, "stats": {...}}],
 * "complete": bool, "outcome": {"state": ..., "reason": ...}}]}
 * }</pre>
 *
 * <p>It is written compactly on one line ending in a newline. {@code "build"} holds the first build
 * string of each component ({@link LogBuilds}), null when the log had none; {@code "stats"} every
 * statistic of the block in log order, integers as integers and decimals in their shortest plain
 * form ({@code 0.000025}, {@code 124150.0}); {@code "outcome"} is {@link LogOutcome} with its
 * {@link LogOutcome.State#label() label}.
 *
 * <p>Output goes to the writer in 64 K char pieces and is flushed by {@link #end}. Not thread-safe:
 * calls must come from one thread (or be handed over in order).
 */
public final class StatsJson implements StatsWriter {

  private final JsonWriter json;
  private LogBuilds builds = LogBuilds.NONE;
  private boolean fileHeaderWritten;

  /** Writes one statistic of the kernel being written, under a key escaped only once. */
  private final KernelStats.StatVisitor statWriter =
      new KernelStats.StatVisitor() {
        @Override
        public void integer(String key, long value) {
          json.cachedName(key);
          json.value(value);
        }

        @Override
        public void decimal(String key, double value) {
          json.cachedName(key);
          json.value(value);
        }
      };

  /** A document written to {@code out}, which it does not close. */
  public StatsJson(Writer out) {
    json = new JsonWriter(Objects.requireNonNull(out, "out"));
  }

  @Override
  public void begin() {
    json.beginObject();
    json.name("files");
    json.beginArray();
  }

  @Override
  public void beginFile(String file) {
    Objects.requireNonNull(file, "file");
    builds = LogBuilds.NONE;
    fileHeaderWritten = false;
    json.beginObject();
    json.field("file", file);
  }

  @Override
  public void onBuild(BuildString build) {
    builds = builds.with(build);
  }

  /** The build strings, then the kernels: written once the first kernel (or the end) comes. */
  private void fileHeader() {
    if (!fileHeaderWritten) {
      fileHeaderWritten = true;
      json.name("build");
      json.beginObject();
      json.field("accel_sim", builds.accelSim());
      json.field("gpgpu_sim", builds.gpgpuSim());
      json.endObject();
      json.name("kernels");
      json.beginArray();
    }
  }

  @Override
  public void onKernelFinished(KernelStats kernel) {
    fileHeader();
    json.beginObject();
    json.field("name", kernel.name());
    json.field("uid", kernel.uid());
    json.field("instance", kernel.instance());
    json.field("cycles", kernel.cycles());
    json.field("instructions", kernel.instructions());
    json.name("ipc");
    json.value(kernel.ipc());
    json.name("stats");
    json.beginObject();
    kernel.forEachStat(statWriter);
    json.endObject();
    if (!kernel.vectors().isEmpty()) {
      json.name("vectors");
      json.beginObject();
      kernel
          .vectors()
          .forEach(
              (key, values) -> {
                json.name(key);
                json.beginArray();
                for (Number value : values) {
                  if (value instanceof Double decimal) {
                    json.value(decimal.doubleValue());
                  } else {
                    json.value(value.longValue());
                  }
                }
                json.endArray();
              });
      json.endObject();
    }
    json.endObject();
  }

  @Override
  public void endFile(LogOutcome outcome) {
    fileHeader();
    json.endArray();
    json.name("complete");
    json.value(outcome.complete());
    json.name("outcome");
    json.beginObject();
    json.field("state", outcome.state().label());
    json.field("reason", outcome.reason());
    json.endObject();
    json.endObject();
  }

  @Override
  public void end() throws IOException {
    json.endArray();
    json.endObject();
    json.newline();
    json.flush();
  }
}
