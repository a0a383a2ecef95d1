package dev.cascade.core.internal.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.cascade.core.CascadeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

final class NcuCsvTest {

  static String fixture() throws IOException {
    try (InputStream in =
        NcuCsvTest.class.getResourceAsStream("/dev/cascade/core/hardware/demo-h100.ncu.csv")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void parse_readsNcuRawCsvWithItsUnitsRowAndThousandsSeparators() throws IOException {
    List<MeasuredKernel> kernels = NcuCsv.parse("hardware/ncu.csv", fixture());

    assertThat(kernels)
        .extracting(MeasuredKernel::position, MeasuredKernel::cycles, MeasuredKernel::timeUs)
        .containsExactly(
            tuple(0, 6912.0, 3.84),
            tuple(1, 2250.0, 1.25),
            tuple(2, 14580.0, 8.10),
            tuple(3, 5040.0, 2.80),
            tuple(4, 2214.0, 1.23));
    assertThat(kernels.get(2).name())
        .startsWith("flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128");
  }

  @Test
  void parse_convertsEveryTimeUnitToMicroseconds() {
    for (String[] unit :
        new String[][] {{"nsecond", "3840"}, {"usecond", "3.84"}, {"msecond", "0.00384"}}) {
      String csv =
          "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
              + "\"\",\"\",\""
              + unit[0]
              + "\"\n"
              + "\"0\",\"k\",\""
              + unit[1]
              + "\"\n";

      MeasuredKernel kernel = NcuCsv.parse("t.csv", csv).get(0);

      assertThat(kernel.timeUs())
          .as(unit[0])
          .isCloseTo(3.84, org.assertj.core.data.Offset.offset(1e-9));
      assertThat(kernel.cycles()).isNull();
    }
  }

  @Test
  void parse_namesTheFileLineAndValueOfWhatItCannotRead() {
    String header = "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\"\n\"\",\"\",\"cycle\"\n";

    assertThatThrownBy(() -> NcuCsv.parse("hw.csv", header + "\"0\",\"k\",\"n/a\"\n"))
        .isInstanceOf(CascadeException.class)
        .hasMessageStartingWith("hw.csv:3: ")
        .hasMessageContaining("gpc__cycles_elapsed.max \"n/a\" is not a number");
    assertThatThrownBy(
            () ->
                NcuCsv.parse(
                    "hw.csv", "\"ID\",\"Kernel Name\",\"x\"\n\"\",\"\",\"\"\n\"0\",\"k\",\"1\"\n"))
        .hasMessageContaining("hw.csv:1: ")
        .hasMessageContaining("neither gpc__cycles_elapsed.max nor gpu__time_duration.sum");
    assertThatThrownBy(
            () ->
                NcuCsv.parse(
                    "hw.csv",
                    "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"fortnight\"\n"))
        .hasMessageContaining("hw.csv:2: ")
        .hasMessageContaining("\"fortnight\"");
    assertThatThrownBy(() -> NcuCsv.parse("hw.csv", header))
        .hasMessageContaining("has a header but no kernel rows");
  }
}
