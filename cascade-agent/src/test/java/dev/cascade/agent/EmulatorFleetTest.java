package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EmulatorFleetTest {

  @TempDir Path dir;

  @Test
  void members_areReadOnePerLineWithOptionalReplicas() throws Exception {
    Path file = dir.resolve("sims.txt");
    Files.writeString(file, "# sim id, token, replica\ns_1 t1\n\n s_2\tt2  5\ns_3 t3\n");

    assertThat(EmulatorFleet.readMembers(file))
        .containsExactly(
            new EmulatorFleet.Member("s_1", "t1", 0),
            new EmulatorFleet.Member("s_2", "t2", 5),
            new EmulatorFleet.Member("s_3", "t3", 2));
  }

  @Test
  void malformedLine_namesFileAndLine() throws Exception {
    Path file = dir.resolve("sims.txt");
    Files.writeString(file, "s_1 t1\ns_2\n");

    assertThatThrownBy(() -> EmulatorFleet.readMembers(file))
        .hasMessageContaining("sims.txt:2")
        .hasMessageContaining("'<sim id> <token> [replica]'");
  }
}
