package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.Sampling;
import dev.cascade.core.TimeLimit;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The TRACE CONFIG:COUNT... arguments of a run request, and its owner, priority and time limit,
 * shared by {@code run} and {@code runs create}.
 */
final class RunRequestArguments {

  @Parameters(
      index = "0",
      paramLabel = "TRACE",
      description = "The trace id (cascade run also takes a folder holding a trace).")
  String trace;

  @Parameters(
      index = "1..*",
      arity = "1..*",
      paramLabel = "CONFIG[:COUNT]",
      converter = ConfigCount.Converter.class,
      description =
          "A GPU config and how many replicas of it, such as SM90_H100:2; a bare SM90_H100"
              + " runs 1.")
  List<ConfigCount> entries;

  @Option(
      names = "--kernels",
      paramLabel = "WINDOW",
      description =
          "Simulate only these kernels of the trace, by position in kernelslist.g from 1, such as"
              + " 1-5,9 (each kept with the memcpys before it); every config gets the window.")
  String kernels;

  @Option(
      names = "--sampling",
      arity = "0..1",
      fallbackValue = "0.05",
      paramLabel = "TARGET_ERROR",
      description =
          "Simulate only the representatives of the trace's kernel sampling plan and estimate the"
              + " whole trace from them, with an interval; TARGET_ERROR is the predicted error the"
              + " plan aims for, a fraction (default 0.05); without a value, put it after the configs or"
              + " write --sampling=0.05. Not with --kernels.")
  Double sampling;

  @Option(
      names = "--validate",
      description =
          "With --sampling: also simulate the whole trace once on the first config (taking earlier"
              + " results where it can) and report the sample's real error beside the predicted.")
  boolean validate;

  @Option(
      names = "--reuse",
      description =
          "Take the results of earlier succeeded sims with the same trace, config, simulator,"
              + " replica and kernel window instead of simulating again.")
  boolean reuse;

  @Option(
      names = "--owner",
      paramLabel = "NAME",
      description =
          "Whose run: waiting sims take turns across owners (default: your user name, else"
              + " local).")
  String owner;

  @Option(
      names = "--priority",
      paramLabel = "N",
      description = "Higher starts first, -1000 to 1000 (default ${DEFAULT-VALUE}).")
  int priority;

  @Option(
      names = "--time-limit",
      paramLabel = "TIME",
      description =
          "Wall time each sim may take once launched, such as 30m, 90s, 2h; a sim over it fails"
              + " as timed out (default: none).")
  String timeLimit;

  /** The entries as the run request takes them: the kernel window and time limit when given. */
  List<RunEntry> runEntries() {
    Duration limit = timeLimit();
    List<RunEntry> plain = ConfigCount.runEntries(entries);
    Sampling sampled = null;
    if (sampling != null) {
      try {
        sampled = Sampling.of(sampling).withValidate(validate);
      } catch (IllegalArgumentException e) {
        throw new CascadeException(ErrorCode.INVALID, "--" + e.getMessage(), "sampling");
      }
    } else if (validate) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "--validate checks a sampled run against the whole trace; give --sampling too",
          "validate");
    }
    Sampling each = sampled;
    try {
      return plain.stream()
          .map(entry -> new RunEntry(entry.gpuConfig(), entry.count(), kernels, limit, each))
          .toList();
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "kernels");
    }
  }

  /** The run's owner (given, else the user's name when it is a valid owner) and priority. */
  RunOptions options() {
    String name = owner != null ? owner : defaultOwner();
    try {
      return new RunOptions(name, priority, reuse);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, "--" + e.getMessage(), null);
    }
  }

  /** {@code SM90_H100:2 SM90_H200:1}, as given. */
  String entriesText() {
    return ConfigCount.text(entries);
  }

  private Duration timeLimit() {
    if (timeLimit == null) {
      return null;
    }
    try {
      return TimeLimit.parse(timeLimit);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, "--time-limit " + e.getMessage(), null);
    }
  }

  private static String defaultOwner() {
    String user = System.getProperty("user.name", "");
    return user.matches("[A-Za-z0-9._@-]{1,64}") ? user : RunOptions.DEFAULT_OWNER;
  }
}
