package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.PREFILL;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeFixtures;
import static dev.cascade.accelsim.trace.TraceFixtures.rawFromProcessed;
import static dev.cascade.accelsim.trace.TraceFixtures.readText;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class KernelGrouperTest {

  @TempDir Path dir;

  @Test
  void group_manySpills_mergesTheNewestRuns_soALineIsNotRewrittenAtEveryMerge() throws IOException {
    assumeFixtures();
    String traceg = readText(PREFILL.resolve("kernel-1.traceg.xz"));
    byte[] raw = rawFromProcessed(traceg).getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    KernelGrouper.Stats stats =
        new KernelGrouper(dir.resolve("kernel-1.trace"), 16 << 10, dir, ".kernel-1.traceg.", 4)
            .group(new ByteArrayInputStream(raw), out);

    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(traceg);
    // A 16 KiB buffer and 16 warps: about 2,450 tiny runs, merged at every 4.
    assertThat(stats.spillRuns()).isGreaterThan(1000);
    // Merging every run each time rewrote the oldest lines at every merge: about 590 MB of spill
    // files for this 1.5 MB kernel. Merging the newest runs writes about 28 MB.
    assertThat(stats.spillBytes()).isLessThan(40L * traceg.length());
    try (var left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }
  }
}
