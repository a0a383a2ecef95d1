package dev.cascade.core.internal.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.cascade.accelsim.stats.KernelStats;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** The data of the {@code kernel} and {@code log} events a sim's output makes (snake_case JSON). */
final class EventJson {

  private static final JsonFactory JSON = new JsonFactory();

  private EventJson() {}

  /**
   * {@code {"position", "name", "uid", "instance", "cycles", "instructions", "ipc",
   * "simulated_time_us"}}; the simulated time only when the config's clock is known.
   */
  static String kernel(int position, KernelStats kernel, Double clockMhz) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeNumberField("position", position);
      json.writeStringField("name", kernel.name());
      json.writeNumberField("uid", kernel.uid());
      json.writeNumberField("instance", kernel.instance());
      json.writeNumberField("cycles", kernel.cycles());
      json.writeNumberField("instructions", kernel.instructions());
      json.writeNumberField("ipc", kernel.ipc());
      if (clockMhz != null) {
        json.writeNumberField("simulated_time_us", kernel.cycles() / clockMhz);
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /**
   * {@code {"lines": [...]}}, the newest lines printed, oldest first; with {@code "skipped": n}
   * when older lines of the same batch were left out (the full log has them).
   */
  static String log(List<String> lines, long skipped) {
    StringWriter out = new StringWriter(64 + 80 * lines.size());
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeArrayFieldStart("lines");
      for (String line : lines) {
        json.writeString(line);
      }
      json.writeEndArray();
      if (skipped > 0) {
        json.writeNumberField("skipped", skipped);
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
