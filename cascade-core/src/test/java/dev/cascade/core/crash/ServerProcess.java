package dev.cascade.core.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** {@link CrashServerMain} in a JVM of its own, its output appended to {@code server.log}. */
final class ServerProcess {

  private final Process process;

  private ServerProcess(Process process) {
    this.process = process;
  }

  /** Starts the server and returns once it serves (it printed {@code ready}). */
  static ServerProcess start(Path dataDir, int port, long heartbeatTimeoutMillis, String speed)
      throws IOException {
    return start(
        CrashServerMain.class,
        dataDir,
        Integer.toString(port),
        Long.toString(heartbeatTimeoutMillis),
        speed);
  }

  /**
   * Starts {@code main} with the data dir and {@code args} and returns once it printed {@code
   * ready}.
   */
  static ServerProcess start(Class<?> main, Path dataDir, String... args) throws IOException {
    Files.createDirectories(dataDir);
    Path log = dataDir.resolveSibling(dataDir.getFileName() + "-server.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(classPath());
    command.add(main.getName());
    command.add(dataDir.toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    ServerProcess server = new ServerProcess(process);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      Files.writeString(
          log,
          line + "\n",
          StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
      if (line.startsWith("ready ")) {
        Thread.ofVirtual().start(() -> copy(out, log));
        return server;
      }
    }
    server.kill();
    throw new IllegalStateException("the server exited before it served; see " + log);
  }

  /** The server's process id. */
  long pid() {
    return process.pid();
  }

  /** SIGKILL, and waits until it is gone. */
  void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void copy(BufferedReader out, Path log) {
    try {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        Files.writeString(
            log,
            line + "\n",
            StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      // the server is gone
    }
  }

  /**
   * This test JVM's class path; when the test runner hands it over as a manifest-only jar, the
   * entries of that jar's {@code Class-Path}.
   */
  static String classPath() throws IOException {
    String classPath = System.getProperty("java.class.path");
    List<String> entries = List.of(classPath.split(java.io.File.pathSeparator));
    if (entries.size() != 1 || !entries.getFirst().endsWith(".jar")) {
      return classPath;
    }
    try (JarFile jar = new JarFile(entries.getFirst())) {
      Manifest manifest = jar.getManifest();
      String inManifest =
          manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (inManifest == null) {
        return classPath;
      }
      StringBuilder joined = new StringBuilder();
      for (String url : inManifest.trim().split("\\s+")) {
        if (!joined.isEmpty()) {
          joined.append(java.io.File.pathSeparator);
        }
        joined.append(Path.of(java.net.URI.create(url)));
      }
      return joined.toString();
    }
  }
}
