package dev.cascade.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.json.ApiJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
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
import java.util.function.Function;

/**
 * The requests of one client: the user token as {@code Authorization: Bearer}, JSON in and out, and
 * every failure as a {@link CascadeException}: the API's error body with its code, message and
 * field; no answer at all as {@code unavailable}, naming the server and what to do.
 */
final class Http {

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final String token;
  private final HttpClient client;

  Http(String baseUrl, String token) {
    this.baseUrl = baseUrl;
    this.token = token;
    // HTTP/1.1: an event stream is one long response, and h2c upgrades buy nothing here.
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  String baseUrl() {
    return baseUrl;
  }

  /** One path segment, such as an id, encoded for a URL path. */
  static String segment(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** {@code GET path} answered with JSON, read by {@code read}. */
  <T> T get(String path, Function<JsonNode, T> read) {
    return json("GET", path, request(path).GET().header("Accept", "application/json"), read);
  }

  /**
   * {@code POST path} with {@code body} written as JSON ({@code null}: none), answered with JSON.
   */
  <T> T post(String path, Object body, Function<JsonNode, T> read) {
    HttpRequest.BodyPublisher publisher =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(ApiJson.toJson(body));
    HttpRequest.Builder request =
        request(path)
            .POST(publisher)
            .header("Accept", "application/json")
            .header("Content-Type", "application/json");
    return json("POST", path, request, read);
  }

  /** {@code GET path} answered with text, such as {@code results.csv}. */
  String text(String path) {
    try (InputStream body = stream(path)) {
      return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw unreachable(e, "GET", path);
    }
  }

  /** {@code GET path} as a stream the caller reads and closes; no timeout applies to reading it. */
  InputStream stream(String path) {
    return send("GET", path, request(path).GET());
  }

  /**
   * Opens {@code GET path} as a server-sent event stream, resumed after event {@code lastEventId}
   * ({@code Last-Event-ID}) when it is above 0. The caller reads and closes it.
   */
  InputStream events(String path, long lastEventId) {
    HttpRequest.Builder request = request(path).GET().header("Accept", "text/event-stream");
    if (lastEventId > 0) {
      request.header("Last-Event-ID", Long.toString(lastEventId));
    }
    return send("GET", path, request);
  }

  private <T> T json(
      String method, String path, HttpRequest.Builder request, Function<JsonNode, T> read) {
    HttpResponse<InputStream> response = response(method, path, request.timeout(REQUEST_TIMEOUT));
    JsonNode json;
    try (InputStream body = response.body()) {
      json = JSON.readTree(body);
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "the answer of "
              + baseUrl
              + " to "
              + method
              + " "
              + path
              + " is not JSON; is "
              + baseUrl
              + " the URL of a Cascade server?",
          null,
          e);
    }
    try {
      return read.apply(json);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(
          ErrorCode.INTERNAL,
          "the answer of "
              + baseUrl
              + " to "
              + method
              + " "
              + path
              + " is not what Cascade sends: "
              + e.getMessage()
              + "; is the server a newer or older Cascade than this client?",
          null,
          e);
    }
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
    authorize(request);
    return request;
  }

  private void authorize(HttpRequest.Builder request) {
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
  }

  private URI uri(String path) {
    return URI.create(baseUrl + path);
  }

  /** Sends the request; anything but a 2xx becomes the server's {@link CascadeException}. */
  private InputStream send(String method, String path, HttpRequest.Builder request) {
    return response(method, path, request).body();
  }

  private HttpResponse<InputStream> response(
      String method, String path, HttpRequest.Builder request) {
    HttpResponse<InputStream> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw unreachable(e, method, path);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "interrupted while asking Cascade at " + baseUrl + " (" + method + " " + path + ")",
          null,
          e);
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
    throw refused(status, body, method, path);
  }

  private CascadeException refused(int status, String body, String method, String path) {
    try {
      var error = ApiJson.readError(status, JSON.readTree(body));
      if (error.isPresent()) {
        return error.get();
      }
    } catch (IOException e) {
      // not the API's error body: shown as it came, below
    }
    String snippet = body.strip();
    snippet = snippet.length() > 200 ? snippet.substring(0, 200) + "..." : snippet;
    return new CascadeException(
        ApiJson.errorCode(status),
        "Cascade at "
            + baseUrl
            + " answered "
            + status
            + " to "
            + method
            + " "
            + path
            + (snippet.isEmpty() ? "" : ": " + snippet)
            + (status == 404 ? "; is " + baseUrl + " the URL of a Cascade server?" : ""));
  }

  /** The request got no answer: why, in words, and what to do. */
  CascadeException unreachable(IOException e, String method, String path) {
    if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
      return new CascadeException(
          ErrorCode.UNAVAILABLE,
          "cannot reach Cascade at "
              + baseUrl
              + " ("
              + connectFailure(e)
              + "); start it with ./cascade serve or set CASCADE_URL",
          null,
          e);
    }
    if (e instanceof HttpTimeoutException) {
      return new CascadeException(
          ErrorCode.UNAVAILABLE,
          "Cascade at "
              + baseUrl
              + " did not answer "
              + method
              + " "
              + path
              + " in "
              + REQUEST_TIMEOUT.toSeconds()
              + " s; is it overloaded? Try again",
          null,
          e);
    }
    String detail =
        e.getMessage() == null || e.getMessage().isBlank()
            ? "the connection closed"
            : e.getMessage().strip();
    return new CascadeException(
        ErrorCode.UNAVAILABLE,
        "lost the connection to Cascade at " + baseUrl + " (" + detail + "); try again",
        null,
        e);
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

  void close() {
    client.close();
  }
}
