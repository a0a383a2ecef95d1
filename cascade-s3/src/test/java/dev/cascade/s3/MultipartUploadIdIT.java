package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code upload-part} with an upload id that was never made is S3's 404 {@code NoSuchUpload} and
 * writes nothing, wherever the id points ({@code ../../Z}); a real upload still works.
 */
final class MultipartUploadIdIT {

  @TempDir Path dataDir;
  private TestEndpoint endpoint;
  private EmbeddedS3 s3;
  private S3Client client;

  @BeforeEach
  void start() {
    endpoint = TestEndpoint.start(dataDir);
    s3 = endpoint.s3();
    client = endpoint.client();
  }

  @AfterEach
  void stop() {
    endpoint.close();
  }

  private S3Exception uploadPart(String uploadId) {
    return catchThrowableOfType(
        S3Exception.class,
        () ->
            client.uploadPart(
                r -> r.bucket(s3.bucket()).key("t/a.bin").uploadId(uploadId).partNumber(1),
                RequestBody.fromString("part")));
  }

  @Test
  void aNeverMadeUploadId_isNoSuchUpload_andWritesNothing() throws IOException {
    List<String> before = endpoint.storedFiles();

    S3Exception refused = uploadPart("never-initiated-0001");

    assertThat(refused).isNotNull();
    assertThat(refused.statusCode()).isEqualTo(404);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void anUploadIdThatIsAPath_isNoSuchUpload_andMakesNoFolder() throws IOException {
    List<String> before = endpoint.storedFiles();

    S3Exception refused = uploadPart("../../Z");
    S3Exception uuidLike = uploadPart("0f8fad5b-d9cb-469f-a165-70867728950e");

    assertThat(refused.statusCode()).isEqualTo(404);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
    assertThat(refused.awsErrorDetails().errorMessage()).doesNotContainIgnoringCase("s3proxy");
    assertThat(uuidLike.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void aRealUpload_stillTakesItsPartsAndCompletes() {
    String id = client.createMultipartUpload(r -> r.bucket(s3.bucket()).key("t/a.bin")).uploadId();
    String etag =
        client
            .uploadPart(
                r -> r.bucket(s3.bucket()).key("t/a.bin").uploadId(id).partNumber(1),
                RequestBody.fromString("whole"))
            .eTag();
    client.completeMultipartUpload(
        r ->
            r.bucket(s3.bucket())
                .key("t/a.bin")
                .uploadId(id)
                .multipartUpload(
                    m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));

    assertThat(client.getObjectAsBytes(r -> r.bucket(s3.bucket()).key("t/a.bin")).asUtf8String())
        .isEqualTo("whole");
    S3Exception again = uploadPart(id);
    assertThat(again.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
  }
}
