package dev.cascade.core.internal.output;

import dev.cascade.core.KernelResult;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.ResultsJson;
import dev.cascade.core.spi.FinishedKernel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The data of the {@code kernel} and {@code log} events a sim's output makes, as the API's mapping
 * ({@link ResultsJson#writeKernelEvent}, {@link ApiJson#writeLogEvent}) writes them.
 */
final class EventJson {

  private EventJson() {}

  /**
   * {@code {"position", "name", "uid", "instance", "cycles", "instructions", "ipc",
   * "simulated_time_us", "finished_at", "wall_time_s"}}; the simulated time only when the config's
   * clock is known.
   */
  static String kernel(
      int position, FinishedKernel kernel, Double clockMhz, Instant finishedAt, Duration wallTime) {
    KernelResult result =
        new KernelResult(
            position,
            kernel.name(),
            kernel.uid(),
            kernel.instance(),
            kernel.cycles(),
            kernel.instructions(),
            kernel.ipc(),
            Map.of(), // an event carries the headline numbers only
            finishedAt,
            wallTime);
    return ApiJson.toJson(ResultsJson.writeKernelEvent(result, clockMhz));
  }

  /**
   * {@code {"lines": [...]}}, the newest lines printed, oldest first; with {@code "skipped": n}
   * when older lines of the same batch were left out (the full log has them).
   */
  static String log(List<String> lines, long skipped) {
    return ApiJson.toJson(ApiJson.writeLogEvent(lines, skipped));
  }
}
