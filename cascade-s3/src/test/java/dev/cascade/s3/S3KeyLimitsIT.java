package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Keys the file system cannot hold are S3's 400 KeyTooLongError, never a 500 a client retries. */
final class S3KeyLimitsIT {

  @TempDir Path dataDir;
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
  void putOfAKeyWithAPartOver255Bytes_is400KeyTooLongAndWritesNothing() throws IOException {
    String key = "accelsim-traces/t1/" + "k".repeat(256);

    S3Exception refused =
        catchThrowableOfType(S3Exception.class, () -> Uploads.put(client, key, "x"));

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("KeyTooLongError");
    assertThat(refused.awsErrorDetails().errorMessage()).contains("256 bytes").contains("170");
    assertThat(regularFiles()).isZero();
  }

  @Test
  void aPartOf170Bytes_isStillAKeyAlsoForAMultipartUpload() {
    String key = "accelsim-traces/t1/" + "k".repeat(170);
    String single = "m".repeat(170);
    String upload = client.createMultipartUpload(b -> b.bucket("cascade").key(single)).uploadId();
    client.abortMultipartUpload(b -> b.bucket("cascade").key(single).uploadId(upload));

    Uploads.put(client, key, "x");

    assertThat(client.headObject(b -> b.bucket("cascade").key(key)).contentLength()).isEqualTo(1);
  }

  @Test
  void aKeyOver1024Bytes_andAMultipartUploadOfOne_areRefusedAsS3Does() {
    String whole = "a/".repeat(600);
    String longPart = "traces/" + "é".repeat(200);

    S3Exception put =
        catchThrowableOfType(S3Exception.class, () -> Uploads.put(client, whole, "x"));
    S3Exception multipart =
        catchThrowableOfType(
            S3Exception.class,
            () -> client.createMultipartUpload(b -> b.bucket("cascade").key(longPart)));

    assertThat(put.statusCode()).isEqualTo(400);
    assertThat(put.awsErrorDetails().errorCode()).isEqualTo("KeyTooLongError");
    assertThat(multipart.statusCode()).isEqualTo(400);
    assertThat(multipart.awsErrorDetails().errorCode()).isEqualTo("KeyTooLongError");
  }

  @Test
  void readingOrDeletingSuchAKey_findsNothing() {
    String key = "accelsim-traces/t1/" + "k".repeat(300);

    assertThat(
            catchThrowableOfType(
                NoSuchKeyException.class,
                () -> client.getObjectAsBytes(b -> b.bucket("cascade").key(key))))
        .isNotNull();
    assertThat(
            catchThrowableOfType(
                    S3Exception.class, () -> client.headObject(b -> b.bucket("cascade").key(key)))
                .statusCode())
        .isEqualTo(404);
    client.deleteObject(b -> b.bucket("cascade").key(key));
  }

  private long regularFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dataDir.resolve("s3"))) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void keysThatAreNoPlainFilePath_are400InvalidArgument() {
    for (String key :
        List.of("a/../b", "a/./b", "a//b", "..", "t/x-0b7e6b4e-9d0c-4e55-9a3e-8f1f7c0d2a11")) {
      S3Exception refused =
          catchThrowableOfType(S3Exception.class, () -> Uploads.put(client, key, "x"));

      assertThat(refused).as(key).isNotNull();
      assertThat(refused.statusCode()).as(key).isEqualTo(400);
      assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument");
    }
  }

  @Test
  void aKeyThatIsAlsoAPrefixOfOthers_is400InvalidArgumentNotA500() {
    Uploads.put(client, "accelsim-traces/t1/metadata.json", "{}");

    S3Exception onFolder =
        catchThrowableOfType(
            S3Exception.class, () -> Uploads.put(client, "accelsim-traces/t1", "x"));
    S3Exception underFile =
        catchThrowableOfType(
            S3Exception.class,
            () -> Uploads.put(client, "accelsim-traces/t1/metadata.json/inner", "x"));

    assertThat(onFolder.statusCode()).isEqualTo(400);
    assertThat(onFolder.awsErrorDetails().errorMessage()).contains("prefix of other keys");
    assertThat(underFile.statusCode()).isEqualTo(400);
    assertThat(underFile.awsErrorDetails().errorMessage()).contains("needs a folder");
  }
}
