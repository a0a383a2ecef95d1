package dev.cascade.core.internal.results;

import dev.cascade.core.ConfigCorrelation;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.CorrelationFit;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelMatch;
import dev.cascade.core.Trace;
import dev.cascade.core.internal.store.HardwareRepository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Pairs a run's simulated kernels with the ones the GPU measured, by launch order, for the configs
 * of the trace's own architecture. The measured numbers come from the CSV given to the API, else
 * from the first {@code hardware/*.csv} (by name) in the trace's folder.
 */
final class HardwareCorrelator {

  static final String FOLDER = "hardware";

  private final HardwareRepository hardware;
  private final Path tracesFolder;

  /**
   * @param tracesFolder the folder holding one folder per trace; null to read only the API's CSVs
   */
  HardwareCorrelator(HardwareRepository hardware, Path tracesFolder) {
    this.hardware = hardware;
    this.tracesFolder = tracesFolder;
  }

  HardwareCorrelation correlate(Trace trace, List<ConfigResult> results) {
    List<String> notes = new ArrayList<>();
    Optional<Csv> csv = csvOf(trace.id(), notes);
    if (csv.isEmpty()) {
      notes.add(
          "trace \""
              + trace.id()
              + "\" carries no hardware numbers: put an Nsight Compute CSV (ncu --csv --page raw"
              + " --metrics gpc__cycles_elapsed.max,gpu__time_duration.sum) in its hardware/"
              + " folder or PUT it to /api/traces/"
              + trace.id()
              + "/hardware");
      return new HardwareCorrelation(trace.id(), trace.traceGpuArch(), null, 0, List.of(), notes);
    }
    List<MeasuredKernel> measured = NcuCsv.parse(csv.get().source, csv.get().text);
    List<ConfigCorrelation> configs = new ArrayList<>();
    for (ConfigResult config : results) {
      if (trace.traceGpuArch().equals(config.arch())) {
        configs.add(correlate(config, measured));
      }
    }
    if (configs.isEmpty()) {
      notes.add(
          "no config of this run is of the trace's architecture "
              + trace.traceGpuArch()
              + ", the GPU the numbers were measured on; add one to compare with the hardware");
    }
    return new HardwareCorrelation(
        trace.id(), trace.traceGpuArch(), csv.get().source, measured.size(), configs, notes);
  }

  private static ConfigCorrelation correlate(ConfigResult config, List<MeasuredKernel> measured) {
    List<KernelComparison> simulated = config.kernels();
    List<String> notes = new ArrayList<>();
    if (simulated.size() != measured.size()) {
      notes.add(
          "the hardware CSV has "
              + measured.size()
              + " kernel launches and "
              + config.gpuConfig()
              + " simulated "
              + simulated.size()
              + (config.succeeded() == 0 ? " (no replica succeeded)" : "")
              + "; only the first "
              + Math.min(measured.size(), simulated.size())
              + " are paired, by launch order");
    }
    List<KernelMatch> kernels = new ArrayList<>();
    List<Double> hwCycles = new ArrayList<>();
    List<Double> simCycles = new ArrayList<>();
    List<Double> hwTime = new ArrayList<>();
    List<Double> simTime = new ArrayList<>();
    int mismatched = 0;
    for (int i = 0; i < Math.min(measured.size(), simulated.size()); i++) {
      KernelComparison sim = simulated.get(i);
      MeasuredKernel hw = measured.get(i);
      Double time = sim.simulatedTimeUs().isEmpty() ? null : sim.simulatedTimeUs().mean();
      kernels.add(
          new KernelMatch(
              sim.name(),
              sim.instance(),
              hw.name(),
              hw.cycles(),
              sim.cycles().mean(),
              hw.timeUs(),
              time));
      hwCycles.add(hw.cycles());
      simCycles.add(sim.cycles().mean());
      hwTime.add(hw.timeUs());
      simTime.add(time);
      if (!KernelNameMatch.sameKernel(sim.name(), hw.name())) {
        mismatched++;
      }
    }
    if (mismatched > 0) {
      notes.add(
          mismatched
              + " of "
              + kernels.size()
              + " pairs have different names in the log and the CSV: check that the CSV"
              + " profiled the same program in the same order");
    }
    return new ConfigCorrelation(
        config.gpuConfig(),
        kernels,
        CorrelationFit.of(hwCycles, simCycles),
        CorrelationFit.of(hwTime, simTime),
        notes);
  }

  private record Csv(String source, String text) {}

  private Optional<Csv> csvOf(String traceId, List<String> notes) {
    Optional<HardwareRepository.Stored> stored = hardware.find(traceId);
    if (stored.isPresent()) {
      return Optional.of(new Csv(stored.get().source(), stored.get().csv()));
    }
    if (tracesFolder == null) {
      return Optional.empty();
    }
    Path folder = tracesFolder.resolve(traceId).resolve(FOLDER);
    if (!Files.isDirectory(folder)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> csvs =
          files
              .filter(file -> file.getFileName().toString().endsWith(".csv"))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
      if (csvs.isEmpty()) {
        return Optional.empty();
      }
      if (csvs.size() > 1) {
        notes.add(
            "the trace's hardware/ folder holds "
                + csvs.size()
                + " CSV files; "
                + csvs.get(0).getFileName()
                + " is used");
      }
      Path file = csvs.get(0);
      return Optional.of(
          new Csv(
              FOLDER + "/" + file.getFileName(), Files.readString(file, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      notes.add("the trace's hardware/ folder cannot be read: " + e.getMessage());
      return Optional.empty();
    }
  }
}
