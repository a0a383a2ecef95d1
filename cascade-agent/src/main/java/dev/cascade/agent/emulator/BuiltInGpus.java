package dev.cascade.agent.emulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The GPU configs Cascade knows without an Accel-Sim install: the well-known tested-cfgs with their
 * real architecture, core clock and SM count, kept in {@code builtin-gpu-configs.tsv} beside this
 * class. The emulator models them; core's built-in catalog lists them.
 */
public final class BuiltInGpus {

  static final String RESOURCE = "builtin-gpu-configs.tsv";

  private BuiltInGpus() {}

  /** Every built-in config, sorted by name. */
  public static List<GpuFacts> all() {
    try (InputStream in = BuiltInGpus.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the class path");
      }
      return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<GpuFacts> parse(BufferedReader reader) throws IOException {
    List<GpuFacts> configs = new ArrayList<>();
    String line;
    int number = 0;
    while ((line = reader.readLine()) != null) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\t");
      if (fields.length != 4) {
        throw new IllegalStateException(
            RESOURCE + ":" + number + ": expected name, arch, clock_mhz, sms; got " + line);
      }
      configs.add(
          new GpuFacts(
              fields[0],
              fields[1],
              Double.parseDouble(fields[2]),
              Integer.parseInt(fields[3]),
              null));
    }
    configs.sort(Comparator.comparing(GpuFacts::name));
    return List.copyOf(configs);
  }
}
