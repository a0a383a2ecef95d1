package dev.cascade.core.crash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The sim processes of one data dir, found by the {@code CASCADE_DATA_DIR} in their environment
 * ({@code /proc/<pid>/environ}), whichever server started them: the crash matrix's check that no
 * process is left, and its clean-up.
 */
final class SimProcesses {

  private SimProcesses() {}

  /** Pids of live processes whose environment names {@code dataDir} as their data dir. */
  static List<Long> alive(Path dataDir) throws IOException {
    String wanted = "CASCADE_DATA_DIR=" + dataDir.toAbsolutePath().normalize();
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
      for (Path entry : proc.toList()) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String environ =
              new String(Files.readAllBytes(entry.resolve("environ")), StandardCharsets.UTF_8);
          boolean zombie = Files.readString(entry.resolve("stat")).contains(") Z ");
          if (!zombie && List.of(environ.split("\0")).contains(wanted)) {
            pids.add(Long.parseLong(name));
          }
        } catch (IOException e) {
          // gone meanwhile, or not ours to read
        }
      }
    }
    return pids;
  }

  /** Ends every sim process of {@code dataDir} that is still alive: the test's clean-up. */
  static void killAll(Path dataDir) {
    try {
      for (long pid : alive(dataDir)) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    } catch (IOException e) {
      // no /proc: nothing to find
    }
  }
}
