package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.ErrCapture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The hostile-input suite for the embedded S3 endpoint: seeded odd keys through a signed S3 client
 * (put, head, get with odd ranges, copy, multipart, delete) and raw requests with odd headers. None
 * may get a 5xx, no error may name an internal class, and the log may hold no stack trace.
 */
final class HostileS3IT {

  private static final long SEED = 18L;
  private static final int KEYS = 120;
  private static final Pattern INTERNALS = Pattern.compile("com\\.|java\\.|Exception");
  private static final Pattern STACK_TRACE = Pattern.compile("(?m)^\\s+at [\\w.$]+\\(");

  @TempDir Path dataDir;
  private TestEndpoint endpoint;
  private EmbeddedS3 s3;
  private S3Client client;
  private ErrCapture err;
  private final List<String> failures = new ArrayList<>();
  private int sent;

  @BeforeEach
  void start() {
    err = ErrCapture.start();
    // Its client tries once: a 5xx must show, not be retried away.
    endpoint = TestEndpoint.start(dataDir);
    s3 = endpoint.s3();
    client = endpoint.client();
  }

  @AfterEach
  void stop() {
    try {
      endpoint.close();
    } finally {
      err.close();
    }
  }

  @Test
  void oddKeysAndHeaders_neverGetA5xxNorShowInternals() throws Exception {
    Random random = new Random(SEED);
    for (int i = 0; i < KEYS; i++) {
      String key = key(random);
      String other = key(random);
      signed(key, c -> c.putObject(b -> b.bucket("cascade").key(key), RequestBody.fromString("x")));
      signed(key, c -> c.headObject(b -> b.bucket("cascade").key(key)));
      String range = pick(random, "bytes=5-1", "bytes=-0", "bytes=0-", "lines=1-2", "bytes=99999-");
      signed(key, c -> c.getObjectAsBytes(b -> b.bucket("cascade").key(key).range(range)));
      signed(
          key,
          c ->
              c.copyObject(
                  b ->
                      b.sourceBucket("cascade")
                          .sourceKey(key)
                          .destinationBucket("cascade")
                          .destinationKey(other)));
      signed(
          key,
          c -> {
            String upload = c.createMultipartUpload(b -> b.bucket("cascade").key(key)).uploadId();
            c.abortMultipartUpload(b -> b.bucket("cascade").key(key).uploadId(upload));
          });
      signed(key, c -> c.deleteObject(b -> b.bucket("cascade").key(key)));
      signed(key, c -> c.listObjectsV2(b -> b.bucket("cascade").prefix(key).delimiter("/")));
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    for (int i = 0; i < KEYS; i++) {
      raw(http, random);
    }
    System.out.printf(
        "hostile S3 input: %d requests (seed %d), %d failures%n", sent, SEED, failures.size());

    assertThat(failures).as("requests sent: %d", sent).isEmpty();
    assertThat(sent).isGreaterThanOrEqualTo(800);
    assertThat(err.text()).contains("S3 endpoint at").doesNotContainPattern(STACK_TRACE);
  }

  private void signed(String key, Consumer<S3Client> call) {
    sent++;
    try {
      call.accept(client);
    } catch (S3Exception e) {
      String message = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorMessage();
      if (e.statusCode() >= 500) {
        failures.add(e.statusCode() + " " + message + " for key " + shown(key));
      } else if (message != null && INTERNALS.matcher(message).find()) {
        failures.add("internals in \"" + message + "\" for key " + shown(key));
      }
    } catch (SdkClientException e) {
      // Refused by the client itself before it was sent, or a connection the server closed.
      sent--;
    }
  }

  private void raw(HttpClient http, Random random) throws InterruptedException {
    String path = "/cascade/" + pick(random, "a", "accelsim-traces/t/x", "%2e%2e/%2e%2e/etc", "");
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(s3.endpoint() + path)).timeout(Duration.ofSeconds(5));
    switch (random.nextInt(6)) {
      case 0 -> request.header("Authorization", "AWS4-HMAC-SHA256 Credential=" + "x".repeat(300));
      case 1 -> request.header("Authorization", "AWS " + s3.credentials().accessKey() + ":bad");
      case 2 -> request.header("x-amz-content-sha256", "not-a-hash");
      case 3 -> request.header("x-amz-date", "yesterday");
      case 4 -> request.header("Content-MD5", "!!!");
      default -> request.header("Range", "bytes=a-b");
    }
    String method = pick(random, "GET", "PUT", "DELETE", "POST", "HEAD", "PATCH");
    request.method(method, HttpRequest.BodyPublishers.ofString(method.equals("PUT") ? "x" : ""));
    sent++;
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      // 501 NotImplemented is S3's own answer to an operation it does not offer (a POST to an
      // object): a refusal clients do not retry, not a failure of the server.
      boolean notImplemented =
          response.statusCode() == 501 && response.body().contains("<Code>NotImplemented</Code>");
      if (response.statusCode() >= 500 && !notImplemented) {
        failures.add(response.statusCode() + " " + response.body() + " for " + method + " " + path);
      } else if (INTERNALS.matcher(response.body()).find()) {
        failures.add("internals in " + response.body() + " for " + method + " " + path);
      }
    } catch (IOException e) {
      // The server closed a connection on a request it refused outright.
    }
  }

  /** A key from odd parts: long ones, dots, percent signs, spaces, unicode, empty parts. */
  private static String key(Random random) {
    int parts = 1 + random.nextInt(4);
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < parts; i++) {
      if (i > 0) {
        key.append('/');
      }
      key.append(
          switch (random.nextInt(10)) {
            case 0 -> "k".repeat(160 + random.nextInt(120));
            case 1 -> "..";
            case 2 -> ".";
            case 3 -> "";
            case 4 -> "%2e%2e";
            case 5 -> "a b+c&d=e";
            case 6 -> "é☃\uD83D\uDE00".repeat(1 + random.nextInt(40));
            case 7 -> ".mpus-" + random.nextInt(1000);
            case 8 -> "x".repeat(1 + random.nextInt(10)) + "-0b7e6b4e-9d0c-4e55-9a3e-8f1f7c0d2a11";
            default -> "accelsim-traces";
          });
    }
    if (random.nextInt(8) == 0) {
      key.append("/");
    }
    return key.length() == 0 ? "k" : key.toString();
  }

  private static String shown(String key) {
    return "\"" + (key.length() > 60 ? key.substring(0, 60) + "..." : key) + "\"";
  }

  @SafeVarargs
  private static <T> T pick(Random random, T... values) {
    return values[random.nextInt(values.length)];
  }
}
