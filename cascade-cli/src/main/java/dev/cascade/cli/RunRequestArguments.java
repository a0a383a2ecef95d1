package dev.cascade.cli;

import dev.cascade.core.RunEntry;
import java.util.List;
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

  /** The entries as the run request takes them. */
  List<RunEntry> runEntries() {
    return ConfigCount.runEntries(entries);
  }

  /** {@code SM90_H100:2 SM90_H200:1}, as given. */
  String entriesText() {
    return ConfigCount.text(entries);
  }
}
