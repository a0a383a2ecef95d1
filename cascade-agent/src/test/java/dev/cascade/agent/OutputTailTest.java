package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class OutputTailTest {

  @Test
  void passesEverythingOn_andKeepsTheLastBytes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OutputTail tail = new OutputTail(out);
    byte[] big = "x".repeat(10_000).getBytes(StandardCharsets.UTF_8);

    tail.write(big, 0, big.length);
    tail.write("end\n".getBytes(StandardCharsets.UTF_8));
    tail.write('!');

    assertThat(out.size()).isEqualTo(10_005);
    assertThat(tail.text()).hasSize(OutputTail.KEPT_BYTES).endsWith("xend\n!");
  }

  @Test
  void startFailure_isTheLoadersLines_only() throws IOException {
    OutputTail tail = new OutputTail(new ByteArrayOutputStream());
    tail.write(
        ("GPGPU-Sim: started\n./accel-sim.out: symbol lookup error: ./accel-sim.out: undefined"
                + " symbol: _ZN5gpgpu4initEv\n")
            .getBytes(StandardCharsets.UTF_8));

    assertThat(tail.startFailure())
        .isEqualTo(
            "./accel-sim.out: symbol lookup error: ./accel-sim.out: undefined symbol: _ZN5gpgpu4initEv");
  }

  @Test
  void startFailure_isEmptyForOrdinaryOutput() throws IOException {
    OutputTail tail = new OutputTail(new ByteArrayOutputStream());
    tail.write("all went wrong\n".getBytes(StandardCharsets.UTF_8));

    assertThat(tail.startFailure()).isEmpty();
  }
}
