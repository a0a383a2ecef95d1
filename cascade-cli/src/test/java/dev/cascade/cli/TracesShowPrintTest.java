package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.KernelNames;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

final class TracesShowPrintTest {

  @Test
  void kernelTable_showsNamesDemangledAsTheResultsDo() {
    Assumptions.assumeTrue(KernelNames.system().canDemangle(), "needs binutils' c++filt on PATH");
    Instant now = Instant.parse("2025-01-01T00:00:00Z");
    Trace trace =
        new Trace(
            "t1",
            TraceState.READY,
            null,
            "sm_90",
            "SM90_H100",
            null,
            List.of(),
            1,
            List.of(new TraceKernel(1, "kernel-1.traceg", "_Z6reducePfi", "2,1,1", "64,1,1", 9L)),
            100,
            false,
            now,
            now);
    StringWriter out = new StringWriter();

    TracesShowCommand.print(new PrintWriter(out, true), trace, now);

    assertThat(out.toString()).contains("reduce(float*, int)").doesNotContain("_Z6reducePfi");
  }
}
