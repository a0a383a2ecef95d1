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
 * The GPU configs Cascade knows without an Accel-Sim install: the well-known tested-cfgs with the
 * facts the timing model reads from a {@code gpgpusim.config} (clock, SMs, SM limits, launch
 * latency, memory channels, DRAM bus and clock, L2), kept in {@code builtin-gpu-configs.tsv} beside
 * this class. The emulator models them; core's built-in catalog lists them.
 */
public final class BuiltInGpus {

  static final String RESOURCE = "builtin-gpu-configs.tsv";

  /** Name, arch, clock, SMs, the six limits and the ten memory facts. */
  private static final int COLUMNS = 20;

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
      String[] f = line.split("\t");
      if (f.length != COLUMNS) {
        throw new IllegalStateException(
            RESOURCE
                + ":"
                + number
                + ": expected "
                + COLUMNS
                + " tab-separated facts; got "
                + line);
      }
      configs.add(
          new GpuFacts(
              f[0],
              f[1],
              Double.parseDouble(f[2]),
              Integer.parseInt(f[3]),
              new EmulatedGpu.Limits(
                  Integer.parseInt(f[4]),
                  Integer.parseInt(f[5]),
                  Integer.parseInt(f[6]),
                  Integer.parseInt(f[7]),
                  Integer.parseInt(f[8]),
                  Integer.parseInt(f[9])),
              new GpuMemory(
                  Integer.parseInt(f[10]),
                  Integer.parseInt(f[11]),
                  Integer.parseInt(f[12]),
                  Integer.parseInt(f[13]),
                  Integer.parseInt(f[14]),
                  Integer.parseInt(f[15]),
                  Double.parseDouble(f[16]),
                  Long.parseLong(f[17]),
                  Integer.parseInt(f[18]),
                  Integer.parseInt(f[19])),
              null));
    }
    configs.sort(Comparator.comparing(GpuFacts::name));
    return List.copyOf(configs);
  }
}
