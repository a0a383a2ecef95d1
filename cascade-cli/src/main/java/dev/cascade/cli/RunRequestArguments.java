package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunEntry;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The TRACE CONFIG:COUNT... arguments of a run request, shared by {@code run} and {@code runs
 * create}.
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
      names = "--reuse",
      description =
          "Take the results of earlier succeeded sims with the same trace, config, simulator,"
              + " replica and kernel window instead of simulating again.")
  boolean reuse;

  /** The entries as the run request takes them. */
  List<RunEntry> runEntries() {
    List<RunEntry> plain = ConfigCount.runEntries(entries);
    if (kernels == null) {
      return plain;
    }
    try {
      return plain.stream()
          .map(entry -> new RunEntry(entry.gpuConfig(), entry.count(), kernels))
          .toList();
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "kernels");
    }
  }

  /** {@code SM90_H100:2 SM90_H200:1}, as given. */
  String entriesText() {
    return ConfigCount.text(entries);
  }
}
