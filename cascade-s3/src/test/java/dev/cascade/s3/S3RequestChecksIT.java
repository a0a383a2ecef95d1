package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * What the endpoint refuses before its S3 library sees it ({@link RequestChecks}): a body that is
 * not the SHA-256 its request signed, however signed; an access control policy without an owner; a
 * key the library keeps for itself, in words that do not name it. What is legal keeps working.
 */
final class S3RequestChecksIT {

  private static final String BUCKET = "cascade";
  private static final byte[] BODY = "the real body".getBytes(StandardCharsets.UTF_8);
  private static final byte[] OTHER = "a false body!".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dataDir;
  private TestEndpoint endpoint;
  private S3Client client;

  @BeforeEach
  void start() {
    endpoint = TestEndpoint.start(dataDir);
    client = endpoint.client();
  }

  @AfterEach
  void stop() {
    endpoint.close();
  }

  private static Grant allUsersRead() {
    return Grant.builder()
        .grantee(g -> g.type(Type.GROUP).uri("http://acs.amazonaws.com/groups/global/AllUsers"))
        .permission(Permission.READ)
        .build();
  }

  private static void assertRefused(S3Exception refused, int status, String code) {
    assertThat(refused).as("refused").isNotNull();
    assertThat(refused.statusCode()).isEqualTo(status);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo(code);
    assertThat(refused.awsErrorDetails().errorMessage())
        .doesNotContain("S3Proxy", "Exception", "java.");
  }

  private static void assertRefused(HttpResponse<String> response, String code) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body()).contains("<Code>" + code + "</Code>");
  }

  @Test
  void putBucketAcl_withoutOwner_isMalformedAclError_andChangesNothing() {
    var before = client.getBucketAcl(b -> b.bucket(BUCKET));

    S3Exception refused =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                client.putBucketAcl(
                    b -> b.bucket(BUCKET).accessControlPolicy(p -> p.grants(allUsersRead()))));

    assertRefused(refused, 400, "MalformedACLError");
    assertThat(refused.awsErrorDetails().errorMessage()).contains("no Owner");
    var after = client.getBucketAcl(b -> b.bucket(BUCKET));
    assertThat(after.owner()).isEqualTo(before.owner());
    assertThat(after.grants()).isEqualTo(before.grants());
  }

  @Test
  void putObjectAcl_withoutOwner_isMalformedAclError_andChangesNothing() {
    client.putObject(b -> b.bucket(BUCKET).key("t/a.bin"), RequestBody.fromString("x"));
    var before = client.getObjectAcl(b -> b.bucket(BUCKET).key("t/a.bin"));

    S3Exception refused =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                client.putObjectAcl(
                    b ->
                        b.bucket(BUCKET)
                            .key("t/a.bin")
                            .accessControlPolicy(p -> p.grants(allUsersRead()))));

    assertRefused(refused, 400, "MalformedACLError");
    var after = client.getObjectAcl(b -> b.bucket(BUCKET).key("t/a.bin"));
    assertThat(after.owner()).isEqualTo(before.owner());
    assertThat(after.grants()).isEqualTo(before.grants());
    assertThat(client.getObjectAsBytes(b -> b.bucket(BUCKET).key("t/a.bin")).asUtf8String())
        .isEqualTo("x");
  }

  @Test
  void aclsAreReadAsPrivate_whateverTheFolderPermissions() throws Exception {
    Files.setPosixFilePermissions(
        endpoint.s3().storageRoot().resolve(BUCKET), PosixFilePermissions.fromString("rwxr-xr-x"));
    client.putObject(b -> b.bucket(BUCKET).key("t/a.bin"), RequestBody.fromString("x"));
    Files.setPosixFilePermissions(
        endpoint.s3().storageRoot().resolve(BUCKET).resolve("t/a.bin"),
        PosixFilePermissions.fromString("rw-r--r--"));

    var bucket = client.getBucketAcl(b -> b.bucket(BUCKET));
    var object = client.getObjectAcl(b -> b.bucket(BUCKET).key("t/a.bin"));

    assertThat(bucket.grants())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.grantee().type()).isEqualTo(Type.CANONICAL_USER);
              assertThat(g.permission()).isEqualTo(Permission.FULL_CONTROL);
            });
    assertThat(object.grants())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.grantee().type()).isEqualTo(Type.CANONICAL_USER);
              assertThat(g.permission()).isEqualTo(Permission.FULL_CONTROL);
            });
  }

  @Test
  void aclWithOwner_isStillTaken() {
    var owner = client.getBucketAcl(b -> b.bucket(BUCKET)).owner();

    client.putBucketAcl(
        b ->
            b.bucket(BUCKET)
                .accessControlPolicy(
                    p ->
                        p.owner(owner)
                            .grants(
                                Grant.builder()
                                    .grantee(g -> g.type(Type.CANONICAL_USER).id(owner.id()))
                                    .permission(Permission.FULL_CONTROL)
                                    .build())));
  }

  @Test
  void aV2SignedPut_whoseBodyIsNotItsHash_isRefused_andStoresNothing() throws Exception {
    var before = endpoint.storedFiles();

    var response = endpoint.signedV2Put("/cascade/t/v2", TestEndpoint.sha256Hex(OTHER), BODY);

    assertRefused(response, "XAmzContentSHA256Mismatch");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void aPresignedPut_whoseBodyIsNotItsSignedHash_isRefused_andStoresNothing() throws Exception {
    var before = endpoint.storedFiles();

    var response =
        endpoint.presignedPut("/cascade/t/presigned", TestEndpoint.sha256Hex(OTHER), BODY);

    assertRefused(response, "XAmzContentSHA256Mismatch");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void aV2SignedUploadPart_whoseBodyIsNotItsHash_isRefused_andStoresNoPart() throws Exception {
    String id = client.createMultipartUpload(b -> b.bucket(BUCKET).key("t/mp")).uploadId();
    var before = endpoint.storedFiles();

    var response =
        endpoint.signedV2Put(
            "/cascade/t/mp?partNumber=1&uploadId=" + id, TestEndpoint.sha256Hex(OTHER), BODY);

    assertRefused(response, "XAmzContentSHA256Mismatch");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
    assertThat(client.listParts(b -> b.bucket(BUCKET).key("t/mp").uploadId(id)).parts()).isEmpty();
  }

  @Test
  void aV4SignedPutOrPart_whoseBodyIsNotItsHash_isRefused_andStoresNothing() throws Exception {
    String id = client.createMultipartUpload(b -> b.bucket(BUCKET).key("t/mp")).uploadId();
    var before = endpoint.storedFiles();
    String wrong = TestEndpoint.sha256Hex(OTHER);

    assertRefused(
        endpoint.signedV4("PUT", "/cascade/t/v4", wrong, BODY, Map.of()),
        "XAmzContentSHA256Mismatch");
    assertRefused(
        endpoint.signedV4(
            "PUT", "/cascade/t/mp?partNumber=1&uploadId=" + id, wrong, BODY, Map.of()),
        "XAmzContentSHA256Mismatch");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void aHashThatIsNoHash_isInvalidArgument_howeverSigned() throws Exception {
    var before = endpoint.storedFiles();

    var v2 = endpoint.signedV2Put("/cascade/t/v2", "not-a-hash", BODY);
    var v4 = endpoint.signedV4("PUT", "/cascade/t/v4", "not-a-hash", BODY, Map.of());

    assertRefused(v2, "InvalidArgument");
    assertThat(v2.body()).contains("x-amz-content-sha256 is &quot;not-a-hash&quot;");
    assertRefused(v4, "InvalidArgument");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void aWrongContentMd5_isBadDigest_andStoresNothing() throws Exception {
    var before = endpoint.storedFiles();
    String md5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(OTHER));

    var response =
        endpoint.signedV4(
            "PUT",
            "/cascade/t/md5",
            TestEndpoint.sha256Hex(BODY),
            BODY,
            Map.of("Content-MD5", md5));

    assertRefused(response, "BadDigest");
    assertThat(endpoint.storedFiles()).isEqualTo(before);
  }

  @Test
  void rightHashes_unsignedPayloads_andStreamingUploads_areStillStored() throws Exception {
    List<String> sent = new CopyOnWriteArrayList<>();
    ExecutionInterceptor recordHash =
        new ExecutionInterceptor() {
          @Override
          public void beforeTransmission(
              Context.BeforeTransmission context, ExecutionAttributes attributes) {
            context
                .httpRequest()
                .firstMatchingHeader(RequestChecks.CONTENT_SHA256)
                .ifPresent(sent::add);
          }
        };
    String right = TestEndpoint.sha256Hex(BODY);

    assertThat(endpoint.signedV4("PUT", "/cascade/t/v4", right, BODY, Map.of()).statusCode())
        .isEqualTo(200);
    assertThat(endpoint.signedV2Put("/cascade/t/v2", right, BODY).statusCode()).isEqualTo(200);
    assertThat(endpoint.presignedPut("/cascade/t/presigned", right, BODY).statusCode())
        .isEqualTo(200);
    assertThat(
            endpoint
                .signedV4("PUT", "/cascade/t/unsigned", "UNSIGNED-PAYLOAD", BODY, Map.of())
                .statusCode())
        .isEqualTo(200);
    try (S3Client trailing =
            endpoint.newClient(
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(recordHash)));
        S3Client chunked =
            endpoint.newClient(
                b ->
                    b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .overrideConfiguration(o -> o.addExecutionInterceptor(recordHash)))) {
      trailing.putObject(b -> b.bucket(BUCKET).key("t/trailing"), RequestBody.fromBytes(BODY));
      chunked.putObject(b -> b.bucket(BUCKET).key("t/chunked"), RequestBody.fromBytes(BODY));
    }

    assertThat(sent)
        .contains(
            "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
    for (String key : List.of("v4", "v2", "presigned", "unsigned", "trailing", "chunked")) {
      assertThat(client.getObjectAsBytes(b -> b.bucket(BUCKET).key("t/" + key)).asByteArray())
          .as(key)
          .isEqualTo(BODY);
    }
  }

  @Test
  void aKeyTheLibraryKeeps_isRefusedInTheEndpointsOwnWords() {
    S3Exception put =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                client.putObject(
                    b -> b.bucket(BUCKET).key(".s3proxy-mpu-stub-x"), RequestBody.fromString("x")));
    client.putObject(b -> b.bucket(BUCKET).key("t/a"), RequestBody.fromString("x"));
    S3Exception copy =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                client.copyObject(
                    b ->
                        b.sourceBucket(BUCKET)
                            .sourceKey(".s3proxy-mpu-stub-x")
                            .destinationBucket(BUCKET)
                            .destinationKey("t/b")));

    assertRefused(put, 400, "InvalidArgument");
    assertThat(put.awsErrorDetails().errorMessage())
        .contains("\".s3proxy-mpu-stub-x\" is reserved for this endpoint's own records");
    assertRefused(copy, 400, "InvalidArgument");
  }
}
