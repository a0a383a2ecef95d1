package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.RunEntry;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.TimeLimit;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How the client commands answer: with {@code --json}, what the server sent as the API's mapping
 * writes it ({@code dev.cascade.core.json}); otherwise text for people.
 */
final class Printed {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Printed() {}

  /** Prints {@code wire} as indented JSON when {@code json}, else {@code text}; exit code 0. */
  static int answer(CommandSpec spec, boolean json, Object wire, Consumer<PrintWriter> text) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Formats.json(tree(wire)));
    } else {
      text.accept(out);
    }
    out.flush();
    return 0;
  }

  /** A map the API's mapping wrote, as a JSON tree. */
  static JsonNode tree(Object wire) {
    return JSON.valueToTree(wire);
  }

  /** A run's entries as {@code SM90_H100 x2, SM90_H200 x1}. */
  static String entries(List<RunEntry> entries) {
    List<String> parts = new ArrayList<>();
    for (RunEntry entry : entries) {
      List<String> notes = new ArrayList<>();
      if (entry.context() != null) {
        notes.add("CUDA context " + entry.context());
      }
      if (entry.timeLimit() != null) {
        notes.add("at most " + TimeLimit.format(entry.timeLimit()) + " each");
      }
      parts.add(
          entry.name()
              + " x"
              + entry.count()
              + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
    }
    return String.join(", ", parts);
  }

  /**
   * Where an unfinished sim stands, to follow its state: {@code ", 3rd in the queue, done in ~2m"};
   * empty when nothing is known.
   */
  static String schedule(SimSchedule schedule, Instant now) {
    if (schedule == null) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    if (schedule.queuePosition() != null) {
      text.append(", #").append(schedule.queuePosition()).append(" in the queue");
    }
    if (schedule.eta() != null) {
      text.append(
          schedule.eta().isAfter(now)
              ? ", done in ~" + Formats.duration(Duration.between(now, schedule.eta()))
              : ", done any moment");
    }
    return text.toString();
  }

  /** {@code 1 sim}, {@code 2 sims}: a count with its noun, plural unless it is one. */
  static String count(long count, String noun) {
    return count + " " + (count == 1 ? noun : noun + "s");
  }

  /** Counts in the order they come: {@code running 2, succeeded 1}. */
  static String counts(Map<String, Integer> counts) {
    List<String> parts = new ArrayList<>();
    counts.forEach((name, count) -> parts.add(name + " " + count));
    return String.join(", ", parts);
  }
}
