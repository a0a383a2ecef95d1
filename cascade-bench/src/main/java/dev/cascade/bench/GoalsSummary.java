package dev.cascade.bench;

import java.nio.file.Path;
import java.util.Map;

/**
 * Prints every row of the fleet-scale table once the benchmarks of a {@code -Pbench} run are done:
 * what each measured against its baseline and whether the goal is met, or that the row was not
 * measured in this run (and which {@code -Dbench} measures it).
 */
public final class GoalsSummary {

  private GoalsSummary() {}

  public static void main(String[] args) {
    Path work = Path.of(System.getProperty("bench.work", "target/bench"));
    if (args.length == 1 && args[0].equals("--reset")) {
      Goals.reset(work); // a run starts: rows of earlier runs must not count
      return;
    }
    Map<GoalRow, Goals.Measured> rows = Goals.readAll(work);
    System.out.println();
    System.out.println("== goals (issue 14; rows from this run's benchmarks) ==");
    int met = 0;
    for (GoalRow row : GoalRow.values()) {
      Goals.Measured m = rows.get(row);
      String verdict = m == null ? "not measured" : m.met() ? "met" : "NOT met";
      if (m != null && m.met()) {
        met++;
      }
      System.out.printf("%-13s %s (goal %s)%n", verdict, row.what(), row.goal());
      if (m != null) {
        System.out.println("              " + m.seen());
      }
    }
    System.out.printf(
        "%d of %d goals met, %d measured in this run%n", met, GoalRow.values().length, rows.size());
  }
}
