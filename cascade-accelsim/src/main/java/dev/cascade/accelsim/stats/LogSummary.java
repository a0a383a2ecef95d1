package dev.cascade.accelsim.stats;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A whole simulator log, parsed: its build strings, every finished kernel in log order, and how it
 * ended. Reading streams the log, so memory grows only with the number of kernels (each keeps its
 * statistics compactly: one {@code long} per value, keys shared between blocks).
 *
 * @param builds the build strings in log order
 * @param kernels the finished kernels in log order
 * @param outcome how the log ended
 */
public record LogSummary(List<BuildString> builds, List<KernelStats> kernels, LogOutcome outcome) {

  public LogSummary {
    builds = List.copyOf(builds);
    kernels = List.copyOf(kernels);
    Objects.requireNonNull(outcome, "outcome");
  }

  /**
   * Reads and parses a simulator log file.
   *
   * @throws IOException when the file cannot be opened or read
   */
  public static LogSummary read(Path file) throws IOException {
    Collector collector = new Collector();
    LogOutcome outcome = KernelStatsParser.parse(file, collector);
    return collector.summary(outcome);
  }

  /** Reads and parses a simulator log from {@code in} until its end; does not close it. */
  public static LogSummary read(InputStream in) throws IOException {
    Collector collector = new Collector();
    LogOutcome outcome = KernelStatsParser.parse(in, collector);
    return collector.summary(outcome);
  }

  /** Parses a simulator log held in memory. */
  public static LogSummary parse(String log) {
    try {
      return read(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // cannot happen with a byte array
    }
  }

  /** The first build string of {@code component}'s, if the log had one. */
  public Optional<String> build(BuildString.Component component) {
    return builds.stream()
        .filter(build -> build.component() == component)
        .map(BuildString::build)
        .findFirst();
  }

  /** True when the log says the simulation ran to its end. */
  public boolean complete() {
    return outcome.complete();
  }

  /** Collects a parser's events into a {@link LogSummary}. */
  static final class Collector implements StatsListener {
    private final List<BuildString> builds = new ArrayList<>();
    private final List<KernelStats> kernels = new ArrayList<>();

    @Override
    public void onBuild(BuildString build) {
      builds.add(build);
    }

    @Override
    public void onKernelFinished(KernelStats stats) {
      kernels.add(stats);
    }

    LogSummary summary(LogOutcome outcome) {
      return new LogSummary(builds, kernels, outcome);
    }
  }
}
