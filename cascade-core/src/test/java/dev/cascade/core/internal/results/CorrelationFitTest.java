package dev.cascade.core.internal.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.CorrelationFit;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class CorrelationFitTest {

  @Test
  void of_reportsPearsonMaeAggregateErrorAndNrmseAsPlotCorrelationDoes() {
    // hw 100, 200, 400 against sim 110, 180, 400: errors 10, 20, 0.
    CorrelationFit fit =
        CorrelationFit.of(List.of(100.0, 200.0, 400.0), List.of(110.0, 180.0, 400.0));

    assertThat(fit.n()).isEqualTo(3);
    assertThat(fit.meanAbsErrorPct()).isCloseTo((10.0 + 10.0 + 0.0) / 3, within(1e-9));
    assertThat(fit.aggregateErrorPct()).isCloseTo(30.0 / 700 * 100, within(1e-9));
    assertThat(fit.nrmse()).isCloseTo(Math.sqrt(500.0 / 3) / (700.0 / 3), within(1e-9));
    // Deviations from the means 233.3 and 230: covariance 46000, variances 46666.7 and 45800.
    assertThat(fit.pearson()).isCloseTo(46000 / Math.sqrt(140000.0 / 3 * 45800), within(1e-9));
  }

  @Test
  void of_leavesOutPairsWithoutAMeasuredValueAndGivesNoPearsonForOnePoint() {
    CorrelationFit fit = CorrelationFit.of(Arrays.asList(null, 0.0, 50.0), List.of(1.0, 2.0, 60.0));

    assertThat(fit.n()).isEqualTo(1);
    assertThat(fit.pearson()).isNull();
    assertThat(fit.meanAbsErrorPct()).isCloseTo(20, within(1e-9));
    assertThat(CorrelationFit.of(List.of(0.0), List.of(1.0))).isNull();
  }
}
