package dev.cascade.core.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI's files as the server serves them: content types, revalidation, the page's security
 * headers, no token needed for the files themselves, nothing outside the UI's folder, and nothing
 * fetched from anywhere but the server (the page works offline).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class UiFilesIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern IMPORT =
      Pattern.compile("(?:import|from)\\s*\\(?\\s*['\"](\\./[a-z0-9_-]+\\.js)['\"]");
  private static final Pattern PAGE_FILE = Pattern.compile("(?:src|href)=\"(/ui/[a-z0-9_.-]+)\"");
  private static final Pattern URL = Pattern.compile("https?://[^\\s'\"`)<>]+");

  private UiServer server;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    server = UiServer.start(dir, null);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    return get(server, path, headers);
  }

  private HttpResponse<String> get(UiServer on, String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(on.url() + path)).GET();
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.timeout(Duration.ofSeconds(10)).build(), BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        BodyHandlers.ofString());
  }

  @Test
  void root_isThePageWithItsSecurityHeaders() throws Exception {
    HttpResponse<String> page = get("/");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type").orElseThrow().replace(" ", ""))
        .isEqualToIgnoringCase("text/html;charset=utf-8");
    assertThat(page.body()).contains("<script type=\"module\" src=\"/ui/app.js\"></script>");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(
            policy ->
                assertThat(policy).contains("default-src 'self'").contains("connect-src 'self'"));
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
  }

  @Test
  void files_haveTheirTypesAndAreRevalidatedByEtag() throws Exception {
    HttpResponse<String> script = get("/ui/app.js");
    HttpResponse<String> style = get("/ui/style.css");
    HttpResponse<String> icon = get("/ui/favicon.svg");
    String etag = script.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> again = get("/ui/app.js", "If-None-Match", etag);

    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(style.headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
    assertThat(icon.headers().firstValue("Content-Type")).hasValue("image/svg+xml");
    assertThat(etag).matches("\"[0-9a-f]{24}\"");
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
  }

  @Test
  void unknownFilesAndOtherPaths_areTheApisJsonErrors() throws Exception {
    for (String path :
        List.of(
            "/ui/nope.js",
            "/ui/.hidden.js",
            "/ui/index.HTML",
            "/ui/..%2Fapi%2Fruns",
            "/ui/%2e%2e",
            "/ui/dev/cascade/core/ui/app.js",
            "/ui/",
            "/index.html",
            "/nope",
            "/api/nope")) {
      HttpResponse<String> response = get(path);
      assertThat(response.statusCode()).as(path).isBetween(400, 499);
      assertThat(JSON.readTree(response.body()).get("error").get("code").asText())
          .as(path)
          .isNotBlank();
    }
    HttpResponse<String> postPage = post("/");
    assertThat(postPage.statusCode()).isEqualTo(405);
  }

  @Test
  void everyFileThePageLoadsIsServed_andNoneReachesBeyondTheServer() throws Exception {
    Set<String> served = new LinkedHashSet<>();
    Deque<String> pending = new ArrayDeque<>();
    String page = get("/").body();
    Matcher pageFiles = PAGE_FILE.matcher(page);
    while (pageFiles.find()) {
      pending.add(pageFiles.group(1));
    }
    assertOnlyLocal("/", page);
    while (!pending.isEmpty()) {
      String path = pending.pop();
      if (!served.add(path)) {
        continue;
      }
      HttpResponse<String> file = get(path);
      assertThat(file.statusCode()).as(path).isEqualTo(200);
      assertOnlyLocal(path, file.body());
      if (path.endsWith(".js")) {
        Matcher imports = IMPORT.matcher(file.body());
        while (imports.find()) {
          pending.add("/ui/" + imports.group(1).substring(2));
        }
      }
    }
    assertThat(served)
        .contains(
            "/ui/app.js",
            "/ui/style.css",
            "/ui/charts.js",
            "/ui/sse.js",
            "/ui/traces.js",
            "/ui/new-run.js",
            "/ui/run.js",
            "/ui/runs.js",
            "/ui/results.js");
  }

  /** The only URL a UI file may name is SVG's namespace: everything else comes from the server. */
  private static void assertOnlyLocal(String path, String text) {
    Matcher urls = URL.matcher(text);
    while (urls.find()) {
      assertThat(urls.group()).as(path).isEqualTo("http://www.w3.org/2000/svg");
    }
  }

  @Test
  void withAToken_theFilesNeedNoneAndTheApiStillDoes(@TempDir Path dir) throws Exception {
    try (UiServer guarded = UiServer.start(dir, "s3cret")) {
      assertThat(get(guarded, "/").statusCode()).isEqualTo(200);
      assertThat(get(guarded, "/ui/app.js").statusCode()).isEqualTo(200);
      assertThat(get(guarded, "/api/traces").statusCode()).isEqualTo(401);
      assertThat(get(guarded, "/api/traces", "Authorization", "Bearer s3cret").statusCode())
          .isEqualTo(200);
    }
  }
}
