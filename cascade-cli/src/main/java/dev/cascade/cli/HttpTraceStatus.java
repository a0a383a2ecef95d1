package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Trace states from a running Cascade: {@code GET $CASCADE_URL/api/traces/{id}} with {@code
 * Authorization: Bearer $CASCADE_TOKEN} when a token is set. A 404 means Cascade has not seen the
 * trace yet.
 */
final class HttpTraceStatus implements TraceStatus.Source {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI baseUrl;
  private final String token;
  private final HttpClient http;

  HttpTraceStatus(URI baseUrl, String token) {
    String text = baseUrl.toString();
    this.baseUrl = URI.create(text.endsWith("/") ? text : text + "/");
    this.token = token == null || token.isBlank() ? null : token.strip();
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  @Override
  public Optional<TraceStatus> find(String id) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                baseUrl.resolve("api/traces/" + URLEncoder.encode(id, StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json")
            .GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    int status = response.statusCode();
    if (status == 404) {
      return Optional.empty();
    }
    if (status == 401 || status == 403) {
      throw new TokenRefusedException(
          "Cascade at "
              + describe()
              + " answered "
              + status
              + (token == null
                  ? ": it needs a token; set CASCADE_TOKEN to the server's token"
                  : ": it refused the token; set CASCADE_TOKEN to the server's token")
              + " (or pass --no-wait)");
    }
    if (status != 200) {
      throw new IOException(
          "Cascade at "
              + describe()
              + " answered "
              + status
              + ": "
              + errorMessage(response.body()));
    }
    JsonNode trace = JSON.readTree(response.body());
    return Optional.of(
        new TraceStatus(
            trace.path("state").asText(""),
            trace.path("reason").isTextual() ? trace.path("reason").asText() : null,
            trace.path("kernel_count").asInt(0),
            trace.path("updated_at").asText("")));
  }

  @Override
  public String describe() {
    String text = baseUrl.toString();
    return text.substring(0, text.length() - 1);
  }

  private static String errorMessage(String body) {
    try {
      JsonNode message = JSON.readTree(body).path("error").path("message");
      if (message.isTextual()) {
        return message.asText();
      }
    } catch (IOException e) {
      // not JSON: show it as it came
    }
    return body.length() > 200 ? body.substring(0, 200) + "..." : body;
  }

  /** The server wants a token, or another one: waiting more will not help. */
  static final class TokenRefusedException extends IOException {
    TokenRefusedException(String message) {
      super(message);
    }
  }
}
