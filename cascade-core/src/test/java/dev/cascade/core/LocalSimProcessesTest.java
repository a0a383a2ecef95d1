package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding a sim's processes after a crash, on a {@code /proc} written by the test: the agent's
 * group is adopted, not its simulator's, whether or not the agent's environment can be read.
 */
final class LocalSimProcessesTest {

  @TempDir Path proc;

  /** A process: its stat line, and its environment unless {@code environ} is null (unreadable). */
  private void process(int pid, int parent, int group, String environ) throws IOException {
    Path folder = Files.createDirectories(proc.resolve(Integer.toString(pid)));
    Files.writeString(
        folder.resolve("stat"), pid + " (java) S " + parent + " " + group + " " + group + " 0\n");
    if (environ != null) {
      Files.writeString(folder.resolve("environ"), environ.replace(' ', '\0'));
    }
  }

  @Test
  void theAgentIsAdopted_notTheSimulatorItStarted_bothNamingTheSim() throws IOException {
    process(1, 0, 1, null);
    process(50, 1, 50, "HOME=/root"); // the server that crashed: gone, or a shell
    process(100, 1, 100, "CASCADE_SIM_ID=s_1 PATH=/bin"); // the agent, reparented to init
    process(101, 100, 101, "CASCADE_SIM_ID=s_1"); // its simulator, in a session of its own
    process(102, 101, 101, "CASCADE_SIM_ID=s_1"); // the simulator's child, same group

    assertThat(LocalSimProcesses.find(Set.of("s_1", "s_2"), proc)).isEqualTo(Map.of("s_1", "100"));
  }

  @Test
  void anUndumpableAgent_isFoundThroughTheSimulatorItStarted() throws IOException {
    process(1, 0, 1, null);
    process(50, 1, 50, "HOME=/home/cascade"); // the server
    process(100, 50, 100, null); // the agent: its environment is root's to read only
    process(101, 100, 101, "CASCADE_SIM_ID=s_1");

    assertThat(LocalSimProcesses.find(Set.of("s_1"), proc)).isEqualTo(Map.of("s_1", "100"));
  }

  @Test
  void anOrphanedSimulator_isItsOwnGroup_neverInit() throws IOException {
    process(1, 0, 1, null);
    process(101, 1, 101, "CASCADE_SIM_ID=s_1"); // its agent is gone
    process(200, 1, 200, null); // some process of another user
    process(201, 200, 201, "CASCADE_SIM_ID=s_2"); // s_2's simulator, under that unreadable parent

    assertThat(LocalSimProcesses.find(Set.of("s_1"), proc)).isEqualTo(Map.of("s_1", "101"));
    // An unreadable parent is taken once, as the agent: it is never climbed past.
    assertThat(LocalSimProcesses.find(Set.of("s_2"), proc)).isEqualTo(Map.of("s_2", "200"));
  }
}
