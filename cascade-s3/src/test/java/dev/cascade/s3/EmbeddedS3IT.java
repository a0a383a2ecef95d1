package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

final class EmbeddedS3IT {

  @TempDir Path dataDir;
  @TempDir Path work;

  private EmbeddedS3 s3;
  private S3Client client;

  @BeforeEach
  void start() {
    s3 = EmbeddedS3.builder().dataDir(dataDir).port(0).build().start();
    client = Uploads.client(s3);
  }

  @AfterEach
  void stop() {
    client.close();
    s3.close();
  }

  @Test
  void start_createsTheCascadeBucketAndGeneratesCredentials() {
    assertThat(Files.isDirectory(dataDir.resolve("s3/cascade"))).isTrue();
    assertThat(s3.endpoint()).isEqualTo(URI.create("http://127.0.0.1:" + s3.port()));
    assertThat(s3.bucket()).isEqualTo("cascade");
    assertThat(s3.credentials().generated()).isTrue();
    assertThat(s3.credentials().accessKey()).hasSize(20);
    assertThat(s3.credentials().secretKey()).hasSize(40);
    client.headBucket(b -> b.bucket("cascade"));
  }

  @Test
  void putHeadGetListDelete_workOnPlainFilesAtBucketSlashKey() throws IOException {
    Uploads.put(client, "accelsim-traces/t1/metadata.json", "{\"status\": \"complete\"}");
    Uploads.put(client, "accelsim-traces/t1/traces/kernelslist.g", "kernel-1.traceg\n");
    Uploads.put(client, "accelsim-traces/t2/metadata.json", "{}");

    Path file = dataDir.resolve("s3/cascade/accelsim-traces/t1/metadata.json");
    assertThat(file).hasContent("{\"status\": \"complete\"}");
    assertThat(client.headObject(b -> b.bucket("cascade").key("accelsim-traces/t1/metadata.json")))
        .satisfies(head -> assertThat(head.contentLength()).isEqualTo(22));
    assertThat(
            client
                .getObjectAsBytes(
                    b -> b.bucket("cascade").key("accelsim-traces/t1/traces/kernelslist.g"))
                .asUtf8String())
        .isEqualTo("kernel-1.traceg\n");
    assertThat(
            client
                .listObjectsV2(b -> b.bucket("cascade").prefix("accelsim-traces/t1/"))
                .contents()
                .stream()
                .map(S3Object::key))
        .containsExactly(
            "accelsim-traces/t1/metadata.json", "accelsim-traces/t1/traces/kernelslist.g");
    assertThat(
            client
                .listObjectsV2(b -> b.bucket("cascade").prefix("accelsim-traces/").delimiter("/"))
                .commonPrefixes()
                .stream()
                .map(CommonPrefix::prefix))
        .containsExactly("accelsim-traces/t1/", "accelsim-traces/t2/");

    client.deleteObject(b -> b.bucket("cascade").key("accelsim-traces/t1/metadata.json"));
    client.deleteObjects(
        b ->
            b.bucket("cascade")
                .delete(
                    d ->
                        d.objects(
                            ObjectIdentifier.builder()
                                .key("accelsim-traces/t1/traces/kernelslist.g")
                                .build(),
                            ObjectIdentifier.builder()
                                .key("accelsim-traces/t2/metadata.json")
                                .build())));

    assertThat(file).doesNotExist();
    assertThat(regularFiles(dataDir.resolve("s3"))).isEmpty();
    assertThatThrownBy(
            () ->
                client.headObject(b -> b.bucket("cascade").key("accelsim-traces/t1/metadata.json")))
        .isInstanceOf(NoSuchKeyException.class);
  }

  @Test
  void multipartOver20Mb_partsStayHiddenUntilCompleteThenOneFileRemains() throws IOException {
    byte[] bytes = new byte[21 << 20];
    new Random(8).nextBytes(bytes);
    Path source = Files.write(work.resolve("big.bin"), bytes);
    String key = "accelsim-traces/t1/traces/kernel-1.traceg";
    Path object = dataDir.resolve("s3/cascade").resolve(key);

    String uploadId = Uploads.startMultipart(client, key);
    List<CompletedPart> parts = new ArrayList<>();
    parts.add(Uploads.uploadPart(client, key, uploadId, source, 1));

    assertThat(object).doesNotExist();
    assertThat(regularFiles(dataDir.resolve("s3/cascade")))
        .isNotEmpty()
        .allSatisfy(
            name ->
                assertThat(name)
                    .matches("\\.mpus-[0-9a-f-]{36}-.+|\\.s3proxy-mpu-stub-[0-9a-f-]{36}"));

    for (int n = 2; n <= Uploads.partCount(source); n++) {
      parts.add(Uploads.uploadPart(client, key, uploadId, source, n));
    }
    Uploads.completeMultipart(client, key, uploadId, parts);

    assertThat(Files.readAllBytes(object)).isEqualTo(bytes);
    assertThat(regularFiles(dataDir.resolve("s3"))).containsExactly("cascade/" + key);
    assertThat(client.headObject(b -> b.bucket("cascade").key(key)).contentLength())
        .isEqualTo(bytes.length);
    assertThat(client.getObjectAsBytes(b -> b.bucket("cascade").key(key)).asByteArray())
        .isEqualTo(bytes);
  }

  @Test
  void wrongSecret_isRefusedWith403AndWritesNothing() {
    try (S3Client wrong =
        Uploads.client(s3.endpoint(), s3.credentials().accessKey(), "not-the-secret")) {
      assertThatThrownBy(() -> Uploads.put(wrong, "accelsim-traces/t1/metadata.json", "{}"))
          .isInstanceOfSatisfying(
              S3Exception.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch");
              });
    }
    assertThat(regularFiles(dataDir.resolve("s3"))).isEmpty();
  }

  @Test
  void unsignedRequests_areRefusedWhateverTheFilePermissions() throws Exception {
    Uploads.put(client, "accelsim-traces/t1/metadata.json", "{}");
    // What the post-processor writes (mode 644) and an open data dir (777), which s3proxy's file
    // store alone would take for a public-read object and a public-read-write bucket.
    Path bucket = dataDir.resolve("s3/cascade");
    Path kernelsList =
        Files.writeString(bucket.resolve("accelsim-traces/t1/kernelslist.g"), "kernel-1.traceg\n");
    Files.setPosixFilePermissions(kernelsList, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(bucket, PosixFilePermissions.fromString("rwxrwxrwx"));
    HttpClient http = HttpClient.newHttpClient();

    int list =
        unsigned(http, HttpRequest.newBuilder(s3.endpoint().resolve("/cascade?list-type=2")));
    int get =
        unsigned(
            http,
            HttpRequest.newBuilder(
                s3.endpoint().resolve("/cascade/accelsim-traces/t1/kernelslist.g")));
    int put =
        unsigned(
            http,
            HttpRequest.newBuilder(s3.endpoint().resolve("/cascade/accelsim-traces/t1/x"))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")));

    assertThat(List.of(list, get, put)).containsOnly(403);
    assertThat(bucket.resolve("accelsim-traces/t1/x")).doesNotExist();
    assertThat(
            client
                .getObjectAsBytes(b -> b.bucket("cascade").key("accelsim-traces/t1/kernelslist.g"))
                .asUtf8String())
        .isEqualTo("kernel-1.traceg\n");
  }

  @Test
  void logs_neverShowRequestHeadersOrSignatures() {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      LoggerFactory.getLogger(EmbeddedS3IT.class).warn("capture check");
      Uploads.put(client, "accelsim-traces/t1/metadata.json", "{}");
      client.getObjectAsBytes(b -> b.bucket("cascade").key("accelsim-traces/t1/metadata.json"));
      try (S3Client wrong =
          Uploads.client(s3.endpoint(), s3.credentials().accessKey(), "not-the-secret")) {
        assertThatThrownBy(() -> Uploads.put(wrong, "accelsim-traces/t1/x", "x"))
            .isInstanceOf(S3Exception.class);
      }
    } finally {
      System.setErr(original);
    }

    String logs = captured.toString(StandardCharsets.UTF_8);
    assertThat(logs).contains("capture check"); // the capture works
    assertThat(logs)
        .doesNotContainIgnoringCase("authorization")
        .doesNotContain("AWS4-HMAC-SHA256")
        .doesNotContain("Signature=")
        .doesNotContain(s3.credentials().secretKey())
        .doesNotContain(s3.credentials().accessKey());
    assertThat(System.getProperty(QuietLogging.SIMPLE_LOGGER_PROPERTY)).isEqualTo("warn");
  }

  @Test
  void portInUse_failsNamingThePortAndTheWayOut() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      EmbeddedS3 second = EmbeddedS3.builder().dataDir(dataDir).port(taken.getLocalPort()).build();

      assertThatThrownBy(second::start)
          .isInstanceOfSatisfying(
              CascadeException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
                assertThat(e.getMessage())
                    .contains("127.0.0.1:" + taken.getLocalPort())
                    .contains("--s3-port")
                    .contains("--no-s3");
              });
      second.close();
    }
  }

  @Test
  void javalinAndS3_serveSideBySideInOneJvm() throws Exception {
    Javalin app =
        Javalin.create(
                config -> {
                  config.jetty.host = "127.0.0.1";
                  config.jetty.port = 0;
                  config.routes.get("/ping", ctx -> ctx.result("pong"));
                })
            .start();
    try {
      HttpResponse<String> ping =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/ping"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      Uploads.put(client, "accelsim-traces/t1/metadata.json", "{}");

      assertThat(ping.body()).isEqualTo("pong");
      assertThat(dataDir.resolve("s3/cascade/accelsim-traces/t1/metadata.json")).exists();
    } finally {
      app.stop();
    }
  }

  @Test
  void bind_readsTheShortAndMappedFormsOfLoopbackAsTheApiDoes() {
    for (String bind : List.of("127.1", "::ffff:127.0.0.1", "[::ffff:127.0.0.1]")) {
      try (EmbeddedS3 other =
              EmbeddedS3.builder().dataDir(dataDir).bind(bind).port(0).build().start();
          S3Client otherClient = Uploads.client(other)) {
        assertThat(other.endpoint()).isEqualTo(URI.create("http://127.0.0.1:" + other.port()));
        assertThat(other.bind()).isEqualTo("127.0.0.1");
        otherClient.headBucket(b -> b.bucket("cascade"));
      }
    }
  }

  @Test
  void close_isIdempotentAndEndsTheEndpoint() {
    s3.close();
    s3.close();

    assertThatThrownBy(s3::endpoint).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(s3::start).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(
            () ->
                client.putObject(
                    b -> b.bucket("cascade").key("x"),
                    RequestBody.fromString("x", StandardCharsets.UTF_8)))
        .isInstanceOf(RuntimeException.class);
  }

  private static int unsigned(HttpClient http, HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Every regular file under {@code root}, relative, with {@code /}, sorted. */
  private static List<String> regularFiles(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
