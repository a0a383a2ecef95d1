package dev.cascade.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load from {@code wrk} (DESIGN.md measured its 45,000 requests/s with it): a Lua script sends each
 * request for the next sim of the thread's share, round robin, so one sim's chunks go out in order
 * (a thread's share is larger than its connections, and a sim's next chunk is only made after the
 * thread has gone round all its other sims).
 */
final class Wrk {

  private static final Pattern REQUESTS =
      Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m)");
  private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
  private static final Pattern SOCKET_ERRORS =
      Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

  private final Path wrk;
  private final Path work;
  private final int threads;
  private int scripts;

  private Wrk(Path wrk, Path work, int threads) {
    this.wrk = wrk;
    this.work = work;
    this.threads = threads;
  }

  /** {@code wrk} from the PATH, when it is installed. */
  static Optional<Wrk> find(Path work, int threads) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "wrk");
      if (!dir.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(new Wrk(candidate, work, threads));
      }
    }
    return Optional.empty();
  }

  String describe() {
    return wrk + " (" + threads + " threads)";
  }

  LoadResult run(LoadTarget target, int connections, Duration duration)
      throws IOException, InterruptedException {
    if (target.sims().size() < threads) {
      throw new IllegalArgumentException("wrk needs at least one sim per thread");
    }
    Files.createDirectories(work);
    Path script = script(target);
    List<String> command =
        List.of(
            wrk.toString(),
            "-t" + threads,
            "-c" + connections,
            "-d" + Math.max(1, duration.toSeconds()) + "s",
            "--timeout",
            "30s",
            "--latency",
            "-s",
            script.toString(),
            target.baseUrl() + "/");
    Path output = work.resolve("wrk-" + scripts + ".out");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    if (!process.waitFor(duration.toSeconds() + 60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException("wrk did not end a minute after its duration");
    }
    String text = Files.readString(output, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IllegalStateException("wrk failed (exit " + process.exitValue() + "):\n" + text);
    }
    return parse(text);
  }

  static LoadResult parse(String text) {
    Matcher requests = REQUESTS.matcher(text);
    if (!requests.find()) {
      throw new IllegalStateException("cannot read wrk's output:\n" + text);
    }
    long completed = Long.parseLong(requests.group(1));
    double seconds =
        Double.parseDouble(requests.group(2))
            * switch (requests.group(3)) {
              case "us" -> 1e-6;
              case "ms" -> 1e-3;
              case "m" -> 60;
              default -> 1;
            };
    Matcher non2xx = NON_2XX.matcher(text);
    long bad = non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0;
    Matcher socket = SOCKET_ERRORS.matcher(text);
    long errors = 0;
    if (socket.find()) {
      for (int group = 1; group <= 4; group++) {
        errors += Long.parseLong(socket.group(group));
      }
    }
    return new LoadResult(
        "wrk",
        completed - bad,
        bad,
        errors,
        seconds,
        percentile(text, "50%"),
        percentile(text, "99%"));
  }

  /** A line of wrk's latency distribution ({@code 99% 12.34ms}) in milliseconds. */
  private static double percentile(String text, String label) {
    Matcher line =
        Pattern.compile(
                "^\\s*" + Pattern.quote(label) + "\\s+([\\d.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE)
            .matcher(text);
    if (!line.find()) {
      return Double.NaN;
    }
    double value = Double.parseDouble(line.group(1));
    return switch (line.group(2)) {
      case "us" -> value / 1000;
      case "s" -> value * 1000;
      case "m" -> value * 60_000;
      default -> value;
    };
  }

  /** Writes the Lua script (and the chunk bodies it reads) for one run. */
  private Path script(LoadTarget target) throws IOException {
    int run = scripts++;
    List<String> bodyFiles = new ArrayList<>();
    if (target.kind() == LoadTarget.Kind.CHUNK) {
      for (int i = 0; i < target.chunks().size(); i++) {
        Path body = work.resolve("chunk-" + run + "-" + i + ".bin");
        Files.write(body, target.chunks().get(i));
        bodyFiles.add(body.toAbsolutePath().toString());
      }
    }
    StringBuilder lua = new StringBuilder();
    lua.append("-- written by dev.cascade.bench.Wrk for one run\n");
    lua.append("local kind = \"")
        .append(target.kind().name().toLowerCase(Locale.ROOT))
        .append("\"\n");
    lua.append("local threads = ").append(threads).append('\n');
    lua.append("local sims = {\n");
    for (SimRef sim : target.sims()) {
      lua.append("  {\"").append(sim.id()).append("\", \"").append(sim.token()).append("\"},\n");
    }
    lua.append("}\n");
    lua.append("local bodyFiles = {\n");
    for (String file : bodyFiles) {
      lua.append("  \"").append(file.replace("\\", "\\\\").replace("\"", "\\\"")).append("\",\n");
    }
    lua.append("}\n");
    lua.append(
        """
        local heartbeat = '%s'
        local bodies = {}
        local first, count, counter = 1, #sims, 0
        local nextThread = 0

        function setup(thread)
          thread:set("tid", nextThread)
          nextThread = nextThread + 1
        end

        function init(args)
          count = math.floor(#sims / threads)
          first = tid * count + 1
          for i, file in ipairs(bodyFiles) do
            local f = assert(io.open(file, "rb"))
            bodies[i] = f:read("*a")
            f:close()
          end
        end

        function request()
          local slot = counter %% count
          local seq = math.floor(counter / count)
          counter = counter + 1
          local sim = sims[first + slot]
          local headers = {}
          headers["Authorization"] = "Bearer " .. sim[2]
          if kind == "healthz" then
            return wrk.format("GET", "/healthz", headers)
          end
          if kind == "chunk" then
            headers["Content-Type"] = "application/octet-stream"
            return wrk.format("PUT", "/api/sims/" .. sim[1] .. "/chunks/" .. seq, headers,
              bodies[(seq %% #bodies) + 1])
          end
          headers["Content-Type"] = "application/json"
          if kind == "heartbeat" then
            return wrk.format("POST", "/api/sims/" .. sim[1] .. "/heartbeat", headers, heartbeat)
          end
          return wrk.format("POST", "%s", headers, heartbeat)
        end
        """
            .formatted(LoadTarget.HEARTBEAT_BODY, LoadTarget.BASELINE_PATH));
    Path script = work.resolve("load-" + run + ".lua");
    Files.writeString(script, lua, StandardCharsets.UTF_8);
    return script;
  }
}
