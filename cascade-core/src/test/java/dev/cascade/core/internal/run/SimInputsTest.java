package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulator's identity, as far as the sim command tells it before launch. */
final class SimInputsTest {

  @TempDir Path dir;

  @Test
  void simulatorOf_theEmulator_isItsVersion() {
    assertThat(new SimInputs(List.of()).simulatorOf(List.of("java", "Agent", "--emulate")))
        .contains("cascade-emulator-2.0");
  }

  @Test
  void simulatorOf_aBinaryAfterTheAgentsSeparator_isItsHash_andChangesWithIt() throws IOException {
    Path binary = Files.writeString(dir.resolve("accel-sim.out"), "build one");
    List<String> command = List.of("java", "Agent", "--", binary.toString(), "-trace", "x");
    String first = new SimInputs(List.of()).simulatorOf(command).orElseThrow();
    assertThat(first).startsWith("sha256:").hasSize(7 + 64);

    Files.writeString(binary, "build two");
    Files.setLastModifiedTime(binary, FileTime.fromMillis(System.currentTimeMillis() + 5000));
    assertThat(new SimInputs(List.of()).simulatorOf(command).orElseThrow()).isNotEqualTo(first);
  }

  @Test
  void simulatorOf_aShellInFront_isUnknown_forItCouldRunAnything() {
    assertThat(
            new SimInputs(List.of())
                .simulatorOf(List.of("/bin/sh", "-c", "exec accel-sim.out -trace x")))
        .isEmpty();
  }
}
