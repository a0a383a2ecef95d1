package dev.cascade.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Kernel names as people read them: a mangled C++ symbol ({@code _ZN2at6native...}) demangled by
 * binutils' {@code c++filt} when it is installed, then shortened ({@link KernelNameShortener}).
 * Names that are not mangled, and every name when {@code c++filt} is missing or fails, stay as they
 * are. All names asked for at once go through one {@code c++filt} process; answers are cached.
 */
public final class KernelNames {

  private static final KernelNames SYSTEM = new KernelNames(findOnPath("c++filt"));

  private final List<String> command;
  private final Map<String, String> cache = new ConcurrentHashMap<>();

  private KernelNames(List<String> command) {
    this.command = command;
  }

  /** Demangles with the {@code c++filt} on this machine's {@code PATH}, if there is one. */
  public static KernelNames system() {
    return SYSTEM;
  }

  /** Demangles by running {@code command} (a {@code c++filt} that reads names, one a line). */
  public static KernelNames demanglingWith(List<String> command) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("a demangler command needs at least the program");
    }
    return new KernelNames(List.copyOf(command));
  }

  /** Never demangles: every name only shortened as it is. */
  public static KernelNames withoutDemangler() {
    return new KernelNames(null);
  }

  /** True when a demangler is there to be run. */
  public boolean canDemangle() {
    return command != null;
  }

  /** The readable form of one name. */
  public String readable(String name) {
    return readable(List.of(name)).get(name);
  }

  /** The readable form of each name, keyed by the name, through at most one demangler run. */
  public Map<String, String> readable(Collection<String> names) {
    Set<String> unknown = new LinkedHashSet<>();
    for (String name : names) {
      Objects.requireNonNull(name, "name");
      if (!cache.containsKey(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      List<String> mangled = unknown.stream().filter(KernelNames::isMangled).toList();
      Map<String, String> demangled = demangle(mangled);
      for (String name : unknown) {
        cache.put(name, KernelNameShortener.shorten(demangled.getOrDefault(name, name)));
      }
    }
    Map<String, String> answer = new LinkedHashMap<>();
    for (String name : names) {
      answer.put(name, cache.get(name));
    }
    return answer;
  }

  /** Itanium C++ ABI symbols start with {@code _Z}. */
  static boolean isMangled(String name) {
    return name.startsWith("_Z") && name.indexOf('\n') < 0 && name.indexOf(' ') < 0;
  }

  private Map<String, String> demangle(List<String> mangled) {
    if (command == null || mangled.isEmpty()) {
      return Map.of();
    }
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
      try {
        process.getErrorStream().close(); // nothing it says there changes the answer
        try (OutputStream in = process.getOutputStream()) {
          in.write((String.join("\n", mangled) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
          }
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)
            || process.exitValue() != 0
            || lines.size() != mangled.size()) {
          return Map.of(); // a demangler that misbehaves leaves the names as they are
        }
        Map<String, String> answer = new LinkedHashMap<>();
        for (int i = 0; i < mangled.size(); i++) {
          answer.put(mangled.get(i), lines.get(i).isBlank() ? mangled.get(i) : lines.get(i));
        }
        return answer;
      } finally {
        process.destroyForcibly();
      }
    } catch (IOException e) {
      return Map.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Map.of();
    }
  }

  private static List<String> findOnPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return List.of(candidate.toString());
      }
    }
    return null;
  }
}
