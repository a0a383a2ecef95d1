package dev.cascade.core.internal.results;

import dev.cascade.core.Measure;
import dev.cascade.core.Measure.Source;
import dev.cascade.core.Measures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values of measures for one replica: per kernel of its log and for its whole trace, as each
 * measure's {@link Measure#source()} and {@link Measure#aggregation()} say. A value the replica
 * does not have (a statistic its blocks lack, a ratio over 0, a time without a clock) is NaN.
 */
final class MeasureValues {

  /**
   * One kernel of the replica's log, in log order.
   *
   * @param stats the statistics of its block that the measures read
   */
  record Kernel(long cycles, long instructions, Map<String, Double> stats) {}

  /**
   * The replica's values.
   *
   * @param perKernel per kernel in the order given, the value of each measure by id
   * @param total the whole trace's value of each measure by id
   */
  record Replica(List<Map<String, Double>> perKernel, Map<String, Double> total) {}

  private MeasureValues() {}

  /** The statistic keys {@code measures} read, through the measures they refer to. */
  static Set<String> keys(List<Measure> measures) {
    Set<String> keys = new LinkedHashSet<>();
    for (Measure measure : measures) {
      collectKeys(measure, keys, 0);
    }
    return keys;
  }

  private static void collectKeys(Measure measure, Set<String> keys, int depth) {
    switch (measure.source()) {
      case Source.Statistic statistic -> keys.add(statistic.key());
      case Source.Change change -> keys.add(change.key());
      case Source.Ratio ratio -> {
        requireShallow(measure, depth);
        collectKeys(Measures.parse(ratio.numerator()), keys, depth + 1);
        collectKeys(Measures.parse(ratio.denominator()), keys, depth + 1);
      }
      case Source.PerCoreClock time -> {
        requireShallow(measure, depth);
        collectKeys(Measures.parse(time.cycles()), keys, depth + 1);
      }
      case Source.KernelCycles cycles -> {}
      case Source.KernelInstructions instructions -> {}
    }
  }

  /** The values of {@code measures} for a replica whose log has {@code kernels} in this order. */
  static Replica evaluate(List<Measure> measures, List<Kernel> kernels, Double clockMhz) {
    List<Map<String, Double>> perKernel = new ArrayList<>();
    for (int i = 0; i < kernels.size(); i++) {
      Map<String, Double> values = new HashMap<>();
      for (Measure measure : measures) {
        values.put(measure.id(), kernelValue(measure, kernels, i, clockMhz, 0));
      }
      perKernel.add(values);
    }
    Map<String, Double> total = new HashMap<>();
    for (Measure measure : measures) {
      total.put(measure.id(), totalValue(measure, kernels, clockMhz, 0));
    }
    return new Replica(perKernel, total);
  }

  private static double kernelValue(
      Measure measure, List<Kernel> kernels, int index, Double clockMhz, int depth) {
    Kernel kernel = kernels.get(index);
    return switch (measure.source()) {
      case Source.KernelCycles cycles -> kernel.cycles();
      case Source.KernelInstructions instructions -> kernel.instructions();
      case Source.Statistic statistic -> kernel.stats().getOrDefault(statistic.key(), Double.NaN);
      case Source.Change change -> {
        double now = kernel.stats().getOrDefault(change.key(), Double.NaN);
        // The first block of a log counts from the simulator's start, where the total was 0.
        double before =
            index == 0 ? 0 : kernels.get(index - 1).stats().getOrDefault(change.key(), Double.NaN);
        yield now - before;
      }
      case Source.Ratio ratio -> {
        requireShallow(measure, depth);
        yield divide(
            kernelValue(Measures.parse(ratio.numerator()), kernels, index, clockMhz, depth + 1),
            kernelValue(Measures.parse(ratio.denominator()), kernels, index, clockMhz, depth + 1));
      }
      case Source.PerCoreClock time -> {
        requireShallow(measure, depth);
        yield clockMhz == null
            ? Double.NaN
            : kernelValue(Measures.parse(time.cycles()), kernels, index, clockMhz, depth + 1)
                / clockMhz;
      }
    };
  }

  private static double totalValue(
      Measure measure, List<Kernel> kernels, Double clockMhz, int depth) {
    if (measure.source() instanceof Source.Ratio ratio) {
      requireShallow(measure, depth);
      return divide(
          totalValue(Measures.parse(ratio.numerator()), kernels, clockMhz, depth + 1),
          totalValue(Measures.parse(ratio.denominator()), kernels, clockMhz, depth + 1));
    }
    double sum = 0;
    double max = Double.NEGATIVE_INFINITY;
    double last = Double.NaN;
    int counted = 0;
    for (int i = 0; i < kernels.size(); i++) {
      double value = kernelValue(measure, kernels, i, clockMhz, depth);
      if (Double.isFinite(value)) { // a kernel without the value is left out, not taken as 0
        sum += value;
        max = Math.max(max, value);
        last = value;
        counted++;
      }
    }
    if (counted == 0) {
      return Double.NaN;
    }
    return switch (measure.aggregation()) {
      case SUM -> sum;
      case MEAN -> sum / counted;
      case MAX -> max;
      case LAST -> last;
      case RATIO_OF_TOTALS -> throw new IllegalStateException("only a ratio aggregates so");
    };
  }

  private static double divide(double numerator, double denominator) {
    return denominator == 0 ? Double.NaN : numerator / denominator;
  }

  /** Measures refer to measures; a loop among them would never end. */
  private static void requireShallow(Measure measure, int depth) {
    if (depth > 8) {
      throw new IllegalArgumentException(
          "measure \"" + measure.id() + "\" refers to itself through other measures");
    }
  }
}
