package dev.cascade.core.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Pacer;
import dev.cascade.agent.emulator.PrecomputedCounts;
import dev.cascade.core.internal.demo.DemoTraceSeeder;
import dev.cascade.core.internal.trace.TraceProcessor.TraceProcessingException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EmulatorCountsStepTest {

  @TempDir Path traces;

  private final EmulatorCountsStep step = new EmulatorCountsStep(new AccelSimProcessor());

  private record Run(String output, long cycles) {}

  private static Run emulate(Path trace, String config) throws Exception {
    Emulation emulation = Emulator.prepare(EmulatorOptions.of(trace, config).withSpeed(0));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Emulator.run(emulation, 0, out, Pacer.system());
    return new Run(out.toString(StandardCharsets.UTF_8), emulation.totalCycles());
  }

  @Test
  void processingTheDemo_writesCountsThatGiveTheSameCyclesAsTheTraceItself() throws Exception {
    DemoTraceSeeder.seedIfEmpty(traces);
    Path demo = traces.resolve(DemoTraceSeeder.DEMO_ID);
    Path counts = PrecomputedCounts.fileFor(demo.resolve("traces/kernelslist.g"));

    assertThat(step.process(demo).kernelCount()).isEqualTo(5);

    assertThat(counts).isRegularFile();
    Run h100 = emulate(demo, "SM90_H100");
    Run h200 = emulate(demo, "SM90_H200");
    assertThat(h100.cycles()).isEqualTo(54108);
    assertThat(h200.cycles()).isEqualTo(50628);
    Files.delete(counts);
    assertThat(emulate(demo, "SM90_H100")).isEqualTo(h100);
    assertThat(emulate(demo, "SM90_H200")).isEqualTo(h200);
  }

  @Test
  void processingAgain_replacesCountsMadeFromOldFiles() throws Exception {
    TestTraces.writeProcessedTrace(traces, "{}", 2);
    Path list = traces.resolve("traces/kernelslist.g");
    Path counts = PrecomputedCounts.fileFor(list);
    Files.writeString(counts, "cascade-emulator-counts 1\nkernel 1 1 1 9 9 9 9 9 9 9 9 9 x\n");

    step.process(traces);

    assertThat(Files.readString(counts))
        .doesNotContain("kernel 1 1 1 9")
        .contains("kernel-1.traceg", "kernel-2.traceg");
  }

  @Test
  void aTraceTheEmulatorCannotCount_isStillProcessed_withoutCounts() throws Exception {
    TestTraces.writeProcessedTrace(traces, "{}", 1);
    Path list = traces.resolve("traces/kernelslist.g");
    TraceProcessor listGoesAway =
        folder -> {
          TraceProcessor.Facts facts = new AccelSimProcessor().process(folder);
          try {
            Files.writeString(list, "kernel-9.traceg\n"); // a file that is not there
          } catch (java.io.IOException e) {
            throw new TraceProcessingException(e.toString());
          }
          return facts;
        };

    assertThat(new EmulatorCountsStep(listGoesAway).process(traces).kernelCount()).isEqualTo(1);
    assertThat(PrecomputedCounts.fileFor(list)).doesNotExist();
  }
}
