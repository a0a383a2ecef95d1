package dev.cascade.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The sim side of DESIGN.md section 7: {@code POST /api/sims/{id}/heartbeat} and {@code PUT
 * /api/sims/{id}/chunks/{seq}}, with the sim's bearer token. An answer is a success, a {@link
 * AppException#retryable() retryable} failure (no connection, a timeout, 5xx, 408, 425, 429) or a
 * refusal (any other status: a wrong token, an unknown sim, ...), which retrying will not cure.
 *
 * <p>Uses {@link HttpURLConnection} (with its keep-alive pool), not {@code java.net.http}: both are
 * JDK classes, but {@code HttpClient} takes about a second to build on a busy two-core machine (it
 * loads the TLS stack even for plain http), against a tenth of that for the first request here, and
 * the agent's start-up time is the launch benchmark's cost (DESIGN.md section 15). The fleet, one
 * JVM for many sims, uses {@code HttpClient}'s asynchronous API.
 */
final class AppClient {

  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
  private static final int MAX_ERROR_BODY = 300;

  private final String simBase;
  private final String authorization;

  AppClient(URI mainUrl, String simId, String token) {
    this.simBase = simBase(mainUrl, simId);
    this.authorization = "Bearer " + token;
  }

  /** {@code <main url>/api/sims/<sim id>}, without a doubled slash. */
  static String simBase(URI mainUrl, String simId) {
    String base = mainUrl.toString();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base + "/api/sims/" + simId;
  }

  /** What went wrong talking to the app. */
  static final class AppException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final boolean retryable;

    AppException(String message, int status, boolean retryable, Throwable cause) {
      super(message, cause);
      this.status = status;
      this.retryable = retryable;
    }

    /** The HTTP status, 0 when there was no answer. */
    int status() {
      return status;
    }

    /** True when trying again later may work. */
    boolean retryable() {
      return retryable;
    }

    /** True when nothing listened at the app's address: the connection was refused. */
    boolean refused() {
      return getCause() instanceof ConnectException;
    }
  }

  /** Sends a heartbeat and reads the reply, waiting at most {@code timeout} for it. */
  AgentJson.Reply heartbeat(String json, Duration timeout) throws AppException {
    String body =
        send(
            "POST",
            simBase + "/heartbeat",
            "application/json",
            json.getBytes(StandardCharsets.UTF_8),
            timeout,
            "heartbeat");
    try {
      return AgentJson.reply(body);
    } catch (IllegalArgumentException e) {
      throw new AppException(
          "the app answered the heartbeat with something that is not JSON: " + e.getMessage(),
          200,
          true,
          e);
    }
  }

  /**
   * Sends one chunk, waiting at most {@code timeout} for the answer.
   *
   * @param readAtMillis when its last bytes were read, in epoch milliseconds ({@link
   *     SimContract#CHUNK_READ_AT_HEADER}); null sends no stamp
   */
  void putChunk(long seq, byte[] bytes, Long readAtMillis, Duration timeout) throws AppException {
    send(
        "PUT",
        simBase + "/chunks/" + seq,
        "application/octet-stream",
        bytes,
        readAtMillis,
        timeout,
        "chunk " + seq);
  }

  private String send(
      String method, String url, String contentType, byte[] body, Duration timeout, String what)
      throws AppException {
    return send(method, url, contentType, body, null, timeout, what);
  }

  private String send(
      String method,
      String url,
      String contentType,
      byte[] body,
      Long readAtMillis,
      Duration timeout,
      String what)
      throws AppException {
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
      connection.setRequestMethod(method);
      connection.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
      connection.setReadTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
      connection.setUseCaches(false);
      connection.setInstanceFollowRedirects(false);
      connection.setDoOutput(true);
      connection.setRequestProperty("Authorization", authorization);
      connection.setRequestProperty("Content-Type", contentType);
      if (readAtMillis != null) {
        connection.setRequestProperty(
            SimContract.CHUNK_READ_AT_HEADER, Long.toString(readAtMillis));
      }
      connection.setFixedLengthStreamingMode(body.length);
      try (OutputStream out = connection.getOutputStream()) {
        out.write(body);
      }
      int status = connection.getResponseCode();
      String answer =
          readBody(status < 400 ? connection.getInputStream() : connection.getErrorStream());
      classify(status, answer, what);
      return answer;
    } catch (IOException e) {
      if (connection != null) {
        connection.disconnect();
      }
      throw unreachable(what, e);
    }
  }

  private static String readBody(InputStream in) throws IOException {
    if (in == null) {
      return "";
    }
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static AppException unreachable(String what, Throwable e) {
    String reason =
        e instanceof ConnectException
            ? "connection refused"
            : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new AppException("cannot send the " + what + ": " + reason, 0, true, e);
  }

  /** Throws unless {@code status} is 2xx; retryable for 5xx, 408, 425 and 429. */
  static void classify(int status, String body, String what) throws AppException {
    if (status >= 200 && status < 300) {
      return;
    }
    boolean retryable = status >= 500 || status == 408 || status == 425 || status == 429;
    String shown = body == null ? "" : body.strip();
    if (shown.length() > MAX_ERROR_BODY) {
      shown = shown.substring(0, MAX_ERROR_BODY) + "...";
    }
    throw new AppException(
        "the app answered the "
            + what
            + " with HTTP "
            + status
            + (shown.isEmpty() ? "" : ": " + shown),
        status,
        retryable,
        null);
  }
}
