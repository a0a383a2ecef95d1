package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.agent.SimAgentMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe of issue 28, played by a hostile simulator: {@code ./cascade serve} started as a user
 * starts it (CASCADE_TOKEN in the shell), three sims through the sim agent, each simulator a script
 * that reads every {@code /proc/<pid>/environ} and {@code cmdline} it can (the server's, its
 * parent's, its siblings'), and its parent agent's stdin, for anything token-like, then tries what
 * it found against the API: listing runs, and writing a chunk into another sim's log. It finds
 * nothing, and every attempt is refused.
 */
final class HostileSimIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String USER_TOKEN = "user-secret-" + Long.toHexString(System.nanoTime());
  private static final int SIMS = 3;
  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir Path dir;

  private Process server;
  private final List<Long> simPids = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stopAll() throws Exception {
    // The sims first (serve leaves them running on purpose), each by its own process group.
    for (long pid : simPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    }
    if (server != null) {
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor();
      }
    }
  }

  /**
   * The hostile simulator: {@code $1} is where it writes what it found and what it got. It looks at
   * the server's process tree only (as root in a test, it could read every process of the machine,
   * other programs' secrets among them, which prove nothing here).
   */
  private static final String HOSTILE =
      """
      #!/bin/bash
      reports="$1"
      me="$CASCADE_SIM_ID"
      echo "$PPID" > "$reports/pid-$me"
      touch "$reports/started-$me"
      # Wait for the sibling sims, so their processes are there to read (60 s at most).
      for _ in $(seq 600); do
        [ "$(ls "$reports" | grep -c '^started-')" -ge %d ] && break
        sleep 0.1
      done
      # The server (its agent's parent) and every process under it: itself, the agents, the sims.
      agent=$PPID
      read -r _ _ _ server _ < "/proc/$agent/stat"
      pids=" $server "
      for _ in 1 2 3 4 5; do
        for stat in /proc/[0-9]*/stat; do
          read -r pid _ _ ppid _ < "$stat" 2>/dev/null || continue
          case "$pids" in *" $ppid "*) case "$pids" in *" $pid "*) ;; *) pids="$pids$pid " ;; esac ;; esac
        done
      done
      echo "$pids" > "$reports/scanned-$me"
      found=()
      for pid in $pids; do
        for file in "/proc/$pid/environ" "/proc/$pid/cmdline"; do
          while IFS= read -r word; do
            case "$word" in
              *TOKEN=?*) found+=("${word#*=}") ;;
              *TOKEN_FILE=/dev/fd/*) # a descriptor of that process: read it through /proc
                stolen="$(timeout 2 head -c 200 "/proc/$pid/fd/${word##*/}" 2>/dev/null)"
                [ -n "$stolen" ] && found+=("$stolen") ;;
            esac
          done < <(tr '\0' '\n' < "$file" 2>/dev/null)
        done
      done
      # The parent agent's stdin, where its token came from.
      stolen="$(timeout 2 head -c 200 "/proc/$agent/fd/0" 2>/dev/null)"
      [ -n "$stolen" ] && found+=("$stolen")
      out="$reports/report-$me"
      : > "$out"
      for token in "${found[@]}"; do echo "found $token" >> "$out"; done
      try() { # what, then curl's arguments
        local what="$1"; shift
        echo "attempt $what $(curl -s -o /dev/null -w '%%{http_code}' "$@")" >> "$out"
      }
      others=$(ls "$reports" | sed -n 's/^started-//p' | grep -v "^$me$")
      for token in "${found[@]}" "" "made-up-token"; do
        auth=()
        [ -n "$token" ] && auth=(-H "Authorization: Bearer $token")
        try runs "${auth[@]}" "$CASCADE_MAIN_URL/api/runs"
        for other in $others; do
          try "chunk-$other" -X PUT "${auth[@]}" --data-binary 'INJECTED BY SPY' \\
            "$CASCADE_MAIN_URL/api/sims/$other/chunks/999"
        done
      done
      touch "$reports/done-$me"
      echo "hostile simulator done"
      """
          .formatted(SIMS);

  @Test
  void aHostileSim_findsNoTokenOfAnyoneElse_andCannotReadRunsOrWriteAnotherSimsLog()
      throws Exception {
    Path reports = Files.createDirectories(dir.resolve("reports"));
    Path hostile = dir.resolve("hostile.sh");
    Files.writeString(hostile, HOSTILE);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String simCommand =
        String.join(
            " ",
            java.toString(),
            "-cp",
            SimAgentMain.classPath(),
            SimAgentMain.class.getName(),
            "--",
            "bash",
            hostile.toString(),
            reports.toString());
    ProcessBuilder builder =
        new ProcessBuilder(
                "./cascade",
                "serve",
                "--port",
                "0",
                "--no-s3",
                "--local-slots",
                Integer.toString(SIMS),
                "--data-dir",
                dir.resolve("data").toString())
            .directory(ROOT.toFile())
            .redirectErrorStream(true);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("CASCADE_JAVA_OPTS");
    builder.environment().remove("CASCADE_TOKEN_FILE");
    builder.environment().put("CASCADE_TOKEN", USER_TOKEN); // as a user's shell has it
    builder.environment().put("CASCADE_SIM_CMD", simCommand);
    server = builder.start();
    server.getOutputStream().close();
    String url = urlOf(server);

    assertThat(Files.readString(Path.of("/proc", Long.toString(server.pid()), "environ")))
        .as("the server's own environment")
        .doesNotContain(USER_TOKEN);
    assertThat(get(url + "/api/runs", null).statusCode()).isEqualTo(401);
    assertThat(get(url + "/api/runs", USER_TOKEN).statusCode()).isEqualTo(200);
    // A fresh data dir's demo trace is processed after the server answers: runs wait for it.
    await()
        .atMost(WAIT)
        .until(
            () ->
                new ObjectMapper()
                    .readTree(get(url + "/api/traces/demo", USER_TOKEN).body())
                    .path("state")
                    .asText()
                    .equals("ready"));

    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/api/runs"))
                .header("Authorization", "Bearer " + USER_TOKEN)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\","
                            + " \"count\": "
                            + SIMS
                            + "}]}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String runId = new ObjectMapper().readTree(created.body()).get("id").asText();

    await().atMost(WAIT).untilAsserted(() -> assertThat(files(reports, "pid-")).hasSize(SIMS));
    for (Path pid : files(reports, "pid-")) {
      simPids.add(Long.parseLong(Files.readString(pid).strip()));
    }
    await().atMost(WAIT).untilAsserted(() -> assertThat(files(reports, "done-")).hasSize(SIMS));

    List<String> found = new ArrayList<>();
    List<String> attempts = new ArrayList<>();
    for (Path report : files(reports, "report-")) {
      for (String line : Files.readAllLines(report)) {
        (line.startsWith("found ") ? found : attempts).add(report.getFileName() + ": " + line);
      }
    }
    assertThat(found).as("tokens a hostile sim found").isEmpty();
    assertThat(attempts)
        .as("what its attempts got")
        .isNotEmpty()
        .allMatch(line -> line.endsWith(" 401") || line.endsWith(" 403"));

    // Nothing reached another sim's log, and the run ends as sims that reported do.
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode run =
                  new ObjectMapper().readTree(get(url + "/api/runs/" + runId, USER_TOKEN).body());
              assertThat(run.get("state").asText()).isIn("succeeded", "failed", "partial");
            });
    JsonNode run = new ObjectMapper().readTree(get(url + "/api/runs/" + runId, USER_TOKEN).body());
    for (JsonNode sim : run.get("sims")) {
      HttpResponse<String> log =
          get(url + "/api/sims/" + sim.get("id").asText() + "/log", USER_TOKEN);
      assertThat(log.body()).doesNotContain("INJECTED BY SPY");
    }
  }

  private HttpResponse<String> get(String url, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<Path> files(Path folder, String prefix) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }

  /** Reads serve's output until it says where it listens; the rest is drained in the background. */
  private static String urlOf(Process server) throws Exception {
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> url = new CompletableFuture<>();
    StringBuilder seen = new StringBuilder();
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              try {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  synchronized (seen) {
                    seen.append(line).append('\n');
                  }
                  int at = line.indexOf("open http://");
                  if (at >= 0) {
                    url.complete(line.substring(at + 5).replaceAll("/$", ""));
                  }
                }
                url.completeExceptionally(new IllegalStateException("serve ended:\n" + seen));
              } catch (IOException e) {
                url.completeExceptionally(e);
              }
            });
    return url.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }
}
