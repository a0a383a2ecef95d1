package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * A small client of a running Cascade's HTTP API ({@code docs/api.md}): JSON in and out, the user
 * token as {@code Authorization: Bearer}, and every failure turned into an {@link ApiException}
 * whose one-line message says what went wrong and what to do: the API's error body as {@code field:
 * message}, a refused connection as "cannot reach Cascade at URL ... start it with ./cascade serve
 * or set CASCADE_URL".
 */
final class ApiClient {

  static final String URL_ENV = "CASCADE_URL";
  static final String TOKEN_ENV = "CASCADE_TOKEN";
  static final String DEFAULT_URL = "http://127.0.0.1:8080";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final String baseUrl;
  private final String token;
  private final HttpClient http;

  /**
   * A client of the server at {@code baseUrl} ({@code http://host:port}, without a path or with the
   * path Cascade is mounted under), sending {@code token} when it is not null or blank.
   */
  ApiClient(URI baseUrl, String token) {
    String text = baseUrl.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    this.baseUrl = text;
    this.token = token == null || token.isBlank() ? null : token.strip();
    // HTTP/1.1: an event stream is one long response, and h2c upgrades buy nothing here.
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  /**
   * The base URL from {@code urlOption}, else {@code CASCADE_URL}, else {@value #DEFAULT_URL}, and
   * the token from {@code CASCADE_TOKEN}.
   *
   * @throws IllegalArgumentException when the URL is not an {@code http://} or {@code https://} URL
   *     with a host; the message names where it came from
   */
  static ApiClient from(String urlOption, Map<String, String> environment) {
    String source;
    String value;
    if (urlOption != null) {
      source = "--url";
      value = urlOption;
    } else if (environment.get(URL_ENV) != null && !environment.get(URL_ENV).isBlank()) {
      source = URL_ENV;
      value = environment.get(URL_ENV);
    } else {
      source = "the default URL";
      value = DEFAULT_URL;
    }
    return new ApiClient(checkedUrl(value.strip(), source), environment.get(TOKEN_ENV));
  }

  private static URI checkedUrl(String value, String source) {
    try {
      URI uri = new URI(value);
      boolean http =
          "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
      if (!http || uri.getHost() == null || uri.getQuery() != null || uri.getFragment() != null) {
        throw new URISyntaxException(value, "not an http:// or https:// URL with a host");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          source
              + " \""
              + value
              + "\" is not the URL of a Cascade server; give one such as "
              + DEFAULT_URL);
    }
  }

  /** Where the server is, for messages: {@code http://127.0.0.1:8080}. */
  String baseUrl() {
    return baseUrl;
  }

  /** {@code GET path} answered with JSON. */
  JsonNode get(String path) throws InterruptedException {
    return json(send(request(path).GET().header("Accept", "application/json"), path), path);
  }

  /** {@code POST path} with {@code body} as JSON ({@code null}: no body), answered with JSON. */
  JsonNode post(String path, Object body) throws InterruptedException {
    HttpRequest.BodyPublisher publisher;
    try {
      publisher =
          body == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body));
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the request body as JSON", e);
    }
    HttpRequest.Builder request =
        request(path)
            .POST(publisher)
            .header("Accept", "application/json")
            .header("Content-Type", "application/json");
    return json(send(request, path), path);
  }

  /** {@code GET path} answered with text, such as {@code results.csv}. */
  String text(String path) throws InterruptedException {
    HttpResponse<InputStream> response = send(request(path).GET(), path);
    try (InputStream body = response.body()) {
      return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw unreachable(e, path);
    }
  }

  /**
   * Opens {@code GET path} as a server-sent event stream, resuming after {@code lastEventId} when
   * it is not null. The caller reads and closes the body; no timeout applies to it.
   */
  InputStream events(String path, String lastEventId) throws InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path)).GET().header("Accept", "text/event-stream");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    return send(request, path).body();
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(REQUEST_TIMEOUT);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return request;
  }

  private URI uri(String path) {
    return URI.create(baseUrl + path);
  }

  /** Sends the request; anything but a 2xx becomes an {@link ApiException} with the API's words. */
  private HttpResponse<InputStream> send(HttpRequest.Builder request, String path)
      throws InterruptedException {
    HttpResponse<InputStream> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw unreachable(e, path);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return response;
    }
    String body;
    try (InputStream in = response.body()) {
      body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
    } catch (IOException e) {
      body = "";
    }
    throw refused(status, body, path);
  }

  private JsonNode json(HttpResponse<InputStream> response, String path) {
    try (InputStream body = response.body()) {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new ApiException(
          "the answer of "
              + baseUrl
              + " to "
              + path
              + " is not JSON ("
              + e.getClass().getSimpleName()
              + "); is "
              + URL_ENV
              + " the URL of a Cascade server?",
          e);
    }
  }

  /** The request did not get an answer: why, in words, and what to do. */
  ApiException unreachable(IOException e, String path) {
    if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
      return new ApiException(
          "cannot reach Cascade at "
              + baseUrl
              + " ("
              + connectFailure(e)
              + "); start it with ./cascade serve or set "
              + URL_ENV,
          e);
    }
    if (e instanceof HttpTimeoutException) {
      return new ApiException(
          "Cascade at "
              + baseUrl
              + " did not answer "
              + path
              + " in "
              + REQUEST_TIMEOUT.toSeconds()
              + " s",
          e);
    }
    String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new ApiException(
        "lost the connection to Cascade at " + baseUrl + " (" + detail + "); try again", e);
  }

  /** Why a connection failed, in a few words: connection refused, unknown host, timed out. */
  private static String connectFailure(IOException e) {
    if (e instanceof HttpConnectTimeoutException) {
      return "timed out connecting";
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof UnresolvedAddressException || cause instanceof UnknownHostException) {
        return "unknown host";
      }
      String message = cause.getMessage();
      if (message != null && !message.isBlank()) {
        return message.toLowerCase(Locale.ROOT).contains("refused")
            ? "connection refused"
            : message.strip();
      }
    }
    return "connection refused";
  }

  /**
   * A refusal as one line: {@code field: message} from the API's error body ({@code message} alone
   * when it already starts with the field, or names none), with a hint for a token problem.
   */
  private ApiException refused(int status, String body, String path) {
    String message = null;
    String field = null;
    try {
      JsonNode error = JSON.readTree(body).path("error");
      if (error.path("message").isTextual()) {
        message = error.path("message").asText();
        field = error.path("field").isTextual() ? error.path("field").asText() : null;
      }
    } catch (IOException e) {
      // not the API's error body: shown as it came, below
    }
    if (message == null) {
      String snippet = body.strip();
      snippet = snippet.length() > 200 ? snippet.substring(0, 200) + "..." : snippet;
      return new ApiException(
          status,
          "Cascade at "
              + baseUrl
              + " answered "
              + status
              + " to "
              + path
              + (snippet.isEmpty() ? "" : ": " + snippet)
              + (status == 404 ? "; is " + URL_ENV + " the URL of a Cascade server?" : ""));
    }
    StringBuilder line = new StringBuilder();
    if (field != null && !message.startsWith(field)) {
      line.append(field).append(": ");
    }
    line.append(message);
    if (status == 401) {
      line.append("; the cascade command sends ").append(TOKEN_ENV).append(" from the environment");
    }
    return new ApiException(status, line.toString());
  }

  /** A request the API refused, or that got no answer; its message is ready for the user. */
  static final class ApiException extends RuntimeException {

    private final int status;

    ApiException(String message, Throwable cause) {
      super(message, cause);
      this.status = 0;
    }

    ApiException(int status, String message) {
      super(message);
      this.status = status;
    }

    /** The HTTP status; 0 when there was no answer. */
    int status() {
      return status;
    }
  }
}
