package dev.cascade.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a large, realistic Accel-Sim log out of the real fixture logs: the pathfinder log's start,
 * then its four kernels and the l1_lat kernel over and over (uids renumbered, {@code
 * gpu_tot_sim_cycle} and {@code gpu_tot_sim_insn} kept running), then the exit lines. Every
 * kernel's own cycles and instructions stay those of the fixture kernel it copies, so the expected
 * per-kernel result is known.
 */
final class BigLogGenerator {

  static final String PATHFINDER = "RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels.accelsim.log";
  static final String L1_LAT = "A30MIG1g_l1_lat_1kernel.accelsim.log";

  /** What was written. */
  record BigLog(Path file, long bytes, int kernels, long totalCycles, long totalInstructions) {}

  /** One kernel of a fixture log: the lines from after the previous block to its block's end. */
  private record Unit(List<String> lines, long cycles, long instructions) {}

  private BigLogGenerator() {}

  static BigLog generate(Path realLogs, Path target, long minBytes) throws IOException {
    List<String> pathfinder = read(realLogs.resolve(PATHFINDER));
    List<String> l1Lat = read(realLogs.resolve(L1_LAT));
    int start = bodyStart(pathfinder);
    List<Unit> units = new ArrayList<>(units(pathfinder, start));
    units.addAll(units(l1Lat, bodyStart(l1Lat)));

    Files.createDirectories(target.toAbsolutePath().getParent());
    long bytes = 0;
    int kernels = 0;
    long totalCycles = 0;
    long totalInstructions = 0;
    try (Writer out =
        new BufferedWriter(
            new OutputStreamWriter(Files.newOutputStream(target), StandardCharsets.ISO_8859_1),
            1 << 20)) {
      for (String line : pathfinder.subList(0, start)) {
        bytes += write(out, line);
      }
      while (bytes < minBytes) {
        for (Unit unit : units) {
          kernels++;
          totalCycles += unit.cycles();
          totalInstructions += unit.instructions();
          for (String line : unit.lines()) {
            bytes += write(out, rewrite(line, kernels, totalCycles, totalInstructions));
          }
        }
      }
      bytes += write(out, "GPGPU-Sim: *** simulation thread exiting ***");
      bytes += write(out, "GPGPU-Sim: *** exit detected ***");
    }
    return new BigLog(target, bytes, kernels, totalCycles, totalInstructions);
  }

  private static List<String> read(Path file) throws IOException {
    // ISO-8859-1 maps bytes to chars one to one, so any byte survives the round trip.
    return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
  }

  private static int bodyStart(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("launching memcpy")
          || line.startsWith("Processing kernel")
          || line.startsWith("launching kernel")) {
        return i;
      }
    }
    throw new IllegalStateException("no kernel in the fixture log");
  }

  private static List<Unit> units(List<String> lines, int start) {
    List<Unit> units = new ArrayList<>();
    long previousCycles = 0;
    long previousInstructions = 0;
    long cycles = 0;
    long instructions = 0;
    int from = start;
    for (int i = start; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("gpu_tot_sim_cycle = ")) {
        cycles = value(line);
      } else if (line.startsWith("gpu_tot_sim_insn = ")) {
        instructions = value(line);
      } else if (line.startsWith("gpgpu_silicon_slowdown")) {
        units.add(
            new Unit(
                List.copyOf(lines.subList(from, i + 1)),
                cycles - previousCycles,
                instructions - previousInstructions));
        previousCycles = cycles;
        previousInstructions = instructions;
        from = i + 1;
      }
    }
    return units;
  }

  private static long value(String line) {
    return Long.parseLong(line.substring(line.indexOf('=') + 1).trim());
  }

  private static String rewrite(String line, int uid, long totalCycles, long totalInstructions) {
    if (line.isEmpty()) {
      return line;
    }
    switch (line.charAt(0)) {
      case 'l' -> {
        if (line.startsWith("launching kernel name: ")) {
          int at = line.lastIndexOf(" uid: ");
          int end = line.indexOf(' ', at + 6);
          return line.substring(0, at + 6) + uid + (end < 0 ? "" : line.substring(end));
        }
      }
      case 'k' -> {
        if (line.startsWith("kernel_launch_uid = ")) {
          return "kernel_launch_uid = " + uid + " ";
        }
      }
      case 'g' -> {
        if (line.startsWith("gpu_tot_sim_cycle = ")) {
          return "gpu_tot_sim_cycle = " + totalCycles;
        }
        if (line.startsWith("gpu_tot_sim_insn = ")) {
          return "gpu_tot_sim_insn = " + totalInstructions;
        }
      }
      default -> {}
    }
    return line;
  }

  private static int write(Writer out, String line) throws IOException {
    out.write(line);
    out.write('\n');
    return line.length() + 1;
  }
}
