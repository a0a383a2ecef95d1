package dev.cascade.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code fetch} mode, for sims on nodes that do not share the app's disk: before the simulator
 * starts, the agent downloads its trace from the app with the sim's token into {@code
 * $CASCADE_TRACE_FETCH_DIR/<content hash>/}, checking every file's SHA-256, and points {@code
 * CASCADE_TRACE_DIR} there. The cache is keyed by the trace's content, and a file lock makes the
 * sims of one node that start together fetch it once: the others wait and then find it.
 */
final class TraceFetch {

  private static final int ATTEMPTS = 5;

  private TraceFetch() {}

  /**
   * {@code env} with the trace's folder in the node's cache, fetched with the sim's {@code token}
   * (read from its standard input, so not in {@code env}) if needed; as is when off.
   */
  static Map<String, String> prepare(Map<String, String> env, String token, PrintStream log) {
    String cache = env.get(SimContract.TRACE_FETCH_DIR);
    if (cache == null || cache.isBlank()) {
      return env;
    }
    String main = require(env, SimContract.MAIN_URL);
    String simId = require(env, SimContract.SIM_ID);
    for (int attempt = 1; ; attempt++) {
      try {
        Path folder = fetch(URI.create(main), simId, token, Path.of(cache), log);
        Map<String, String> changed = new HashMap<>(env);
        changed.put(SimContract.TRACE_DIR, folder.toString());
        return changed;
      } catch (IOException e) {
        if (attempt >= ATTEMPTS) {
          throw new IllegalStateException(
              "cannot fetch the trace from " + main + " (" + attempt + " tries): " + e.getMessage(),
              e);
        }
        log.println("cascade-agent: fetching the trace failed (try " + attempt + "): " + e);
        try {
          Thread.sleep(1000L << (attempt - 1));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while fetching the trace", interrupted);
        }
      }
    }
  }

  private static Path fetch(URI main, String simId, String token, Path cache, PrintStream log)
      throws IOException {
    String base = main.toString().replaceAll("/+$", "") + "/api/sims/" + simId + "/trace";
    Map<?, ?> manifest = (Map<?, ?>) AgentJson.parse(get(base, token));
    String hash = (String) manifest.get("content_hash");
    if (hash == null || !hash.matches("[0-9a-f]{64}")) {
      throw new IOException("the app's trace manifest has no content hash");
    }
    Path target = cache.resolve(hash);
    if (Files.isDirectory(target)) {
      log.println("cascade-agent: trace " + manifest.get("trace_id") + " from the node's cache");
      return target;
    }
    Files.createDirectories(cache);
    try (FileChannel lockFile =
        FileChannel.open(
            cache.resolve(hash + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      lockFile.lock(); // released when the channel closes: one fetch per node and trace at a time
      if (Files.isDirectory(target)) {
        log.println("cascade-agent: trace " + manifest.get("trace_id") + " from the node's cache");
        return target;
      }
      Path partial = cache.resolve(hash + ".partial");
      deleteTree(partial);
      long bytes = 0;
      List<?> files = (List<?>) manifest.get("files");
      for (Object item : files) {
        Map<?, ?> file = (Map<?, ?>) item;
        String path = (String) file.get("path");
        Path to = partial.resolve(path).normalize();
        if (!to.startsWith(partial)) {
          throw new IOException("the manifest names a file outside the trace: " + path);
        }
        Files.createDirectories(to.getParent());
        String url = base + "/file?path=" + URLEncoder.encode(path, StandardCharsets.UTF_8);
        String got = download(url, token, to);
        if (!got.equals(file.get("sha256"))) {
          throw new IOException(
              path + " arrived with SHA-256 " + got + ", not " + file.get("sha256") + " as listed");
        }
        bytes += Files.size(to);
      }
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      log.println(
          "cascade-agent: fetched trace "
              + manifest.get("trace_id")
              + " ("
              + files.size()
              + " files, "
              + bytes
              + " bytes) into "
              + target);
      return target;
    }
  }

  private static String get(String url, String token) throws IOException {
    HttpURLConnection connection = open(url, token);
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }

  /** Downloads {@code url} to {@code to}; returns the SHA-256 of what arrived. */
  private static String download(String url, String token, Path to) throws IOException {
    HttpURLConnection connection = open(url, token);
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
    try (InputStream in = new DigestInputStream(connection.getInputStream(), digest);
        OutputStream out = Files.newOutputStream(to)) {
      in.transferTo(out);
    } finally {
      connection.disconnect();
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static HttpURLConnection open(String url, String token) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    connection.setConnectTimeout(10_000);
    connection.setReadTimeout(60_000);
    connection.setRequestProperty("Authorization", "Bearer " + token);
    int status = connection.getResponseCode();
    if (status != 200) {
      connection.disconnect();
      throw new IOException("GET " + url.replaceAll("\\?.*", "") + " answered " + status);
    }
    return connection;
  }

  private static void deleteTree(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static String require(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is not set; fetching the trace needs it");
    }
    return value;
  }
}
