package dev.cascade.s3;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * An embedded endpoint on a free port, an S3 client for it that tries each request once (so a 5xx
 * shows instead of being retried away), and raw requests signed by hand with AWS Signature V4 for
 * what the SDK will not send (a body that does not match its signed hash).
 */
final class TestEndpoint implements AutoCloseable {

  static final String REGION = "us-east-1";

  private final EmbeddedS3 s3;
  private final S3Client client;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestEndpoint(EmbeddedS3 s3, S3Client client) {
    this.s3 = s3;
    this.client = client;
  }

  static TestEndpoint start(Path dataDir) {
    return start(dataDir, b -> {});
  }

  /** Starts one, with {@code tune} applied to its client's builder. */
  static TestEndpoint start(Path dataDir, Consumer<S3ClientBuilder> tune) {
    EmbeddedS3 s3 = EmbeddedS3.builder().dataDir(dataDir).port(0).build().start();
    return new TestEndpoint(s3, client(s3, tune));
  }

  /** Another client for this endpoint, with {@code tune} applied; the caller closes it. */
  S3Client newClient(Consumer<S3ClientBuilder> tune) {
    return client(s3, tune);
  }

  private static S3Client client(EmbeddedS3 s3, Consumer<S3ClientBuilder> tune) {
    S3ClientBuilder builder =
        S3Client.builder()
            .endpointOverride(s3.endpoint())
            .region(Region.of(REGION))
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(
                        s3.credentials().accessKey(), s3.credentials().secretKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry()));
    tune.accept(builder);
    return builder.build();
  }

  EmbeddedS3 s3() {
    return s3;
  }

  S3Client client() {
    return client;
  }

  /**
   * Sends {@code body} to {@code pathAndQuery} (such as {@code /cascade/t/a?partNumber=1&...}),
   * signed with AWS Signature V4 over {@code headers} and an {@code x-amz-content-sha256} of {@code
   * payloadHash}, whatever the body really hashes to.
   */
  HttpResponse<String> signedV4(
      String method,
      String pathAndQuery,
      String payloadHash,
      byte[] body,
      Map<String, String> headers)
      throws IOException, InterruptedException {
    URI uri = URI.create(s3.endpoint() + pathAndQuery);
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    String amzDate = now.format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'"));
    String day = amzDate.substring(0, 8);
    TreeMap<String, String> signed = new TreeMap<>();
    headers.forEach((name, value) -> signed.put(name.toLowerCase(java.util.Locale.ROOT), value));
    signed.put("host", uri.getHost() + ":" + uri.getPort());
    signed.put("x-amz-content-sha256", payloadHash);
    signed.put("x-amz-date", amzDate);
    String canonicalHeaders =
        signed.entrySet().stream()
            .map(e -> e.getKey() + ":" + e.getValue().strip() + "\n")
            .collect(Collectors.joining());
    String signedHeaders = String.join(";", signed.keySet());
    String canonicalRequest =
        String.join(
            "\n",
            method,
            uri.getRawPath(),
            canonicalQuery(uri.getRawQuery()),
            canonicalHeaders,
            signedHeaders,
            payloadHash);
    String scope = day + "/" + REGION + "/s3/aws4_request";
    String signature = signatureV4(canonicalRequest, amzDate);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
            .header(
                "Authorization",
                "AWS4-HMAC-SHA256 Credential="
                    + s3.credentials().accessKey()
                    + "/"
                    + scope
                    + ", SignedHeaders="
                    + signedHeaders
                    + ", Signature="
                    + signature);
    signed.forEach(
        (name, value) -> {
          if (!name.equals("host")) {
            request.header(name, value);
          }
        });
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends {@code body} with PUT to a URL presigned for {@code path} that signs an {@code
   * x-amz-content-sha256} of {@code payloadHash}, sent as that header.
   */
  HttpResponse<String> presignedPut(String path, String payloadHash, byte[] body)
      throws IOException, InterruptedException {
    URI base = URI.create(s3.endpoint() + path);
    String amzDate =
        ZonedDateTime.now(ZoneOffset.UTC)
            .format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'"));
    String scope = amzDate.substring(0, 8) + "/" + REGION + "/s3/aws4_request";
    String host = base.getHost() + ":" + base.getPort();
    String query =
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
            + s3.credentials().accessKey()
            + "%2F"
            + scope.replace("/", "%2F")
            + "&X-Amz-Date="
            + amzDate
            + "&X-Amz-Expires=300&X-Amz-SignedHeaders=host%3Bx-amz-content-sha256";
    String canonicalRequest =
        String.join(
            "\n",
            "PUT",
            base.getRawPath(),
            canonicalQuery(query),
            "host:" + host + "\nx-amz-content-sha256:" + payloadHash + "\n",
            "host;x-amz-content-sha256",
            payloadHash);
    URI uri =
        URI.create(
            base + "?" + query + "&X-Amz-Signature=" + signatureV4(canonicalRequest, amzDate));
    return http.send(
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(10))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .header("x-amz-content-sha256", payloadHash)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends {@code body} with PUT to {@code path}, signed with AWS Signature V2, which covers the
   * {@code x-amz-*} headers: an {@code x-amz-content-sha256} of {@code payloadHash} among them.
   */
  HttpResponse<String> signedV2Put(String path, String payloadHash, byte[] body)
      throws IOException, InterruptedException {
    String amzDate = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.RFC_1123_DATE_TIME);
    String toSign =
        "PUT\n\n\n\nx-amz-content-sha256:" + payloadHash + "\nx-amz-date:" + amzDate + "\n" + path;
    String signature;
    try {
      Mac mac = Mac.getInstance("HmacSHA1");
      mac.init(
          new SecretKeySpec(
              s3.credentials().secretKey().getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
      signature =
          Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    return http.send(
        HttpRequest.newBuilder(URI.create(s3.endpoint() + path))
            .timeout(Duration.ofSeconds(10))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .header("x-amz-content-sha256", payloadHash)
            .header("x-amz-date", amzDate)
            .header("Authorization", "AWS " + s3.credentials().accessKey() + ":" + signature)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String signatureV4(String canonicalRequest, String amzDate) {
    String day = amzDate.substring(0, 8);
    String scope = day + "/" + REGION + "/s3/aws4_request";
    String toSign =
        String.join("\n", "AWS4-HMAC-SHA256", amzDate, scope, hex(sha256(canonicalRequest)));
    byte[] key = ("AWS4" + s3.credentials().secretKey()).getBytes(StandardCharsets.UTF_8);
    for (String part : new String[] {day, REGION, "s3", "aws4_request"}) {
      key = hmac(key, part);
    }
    return hex(hmac(key, toSign));
  }

  /** The hex SHA-256 of {@code body}, as {@code x-amz-content-sha256} carries it. */
  static String sha256Hex(byte[] body) {
    return hex(sha256(body));
  }

  private static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    return Arrays.stream(rawQuery.split("&"))
        .map(pair -> pair.contains("=") ? pair : pair + "=")
        .sorted()
        .collect(Collectors.joining("&"));
  }

  private static byte[] sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** Every file and folder under the endpoint's storage root, relative to it, sorted. */
  List<String> storedFiles() throws IOException {
    Path root = s3.storageRoot();
    try (Stream<Path> files = Files.walk(root)) {
      return files.map(f -> root.relativize(f).toString()).sorted().toList();
    }
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      s3.close();
    }
  }
}
