package dev.cascade.s3;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.S3Exceptions;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Keys the file system cannot hold are refused the way S3 refuses a key that is too long: 400
 * {@code KeyTooLongError}, which clients do not retry, instead of the file system's error as a 500.
 * S3 allows keys of up to 1024 bytes; here each {@code /}-separated part is also a file name (at
 * most 255 bytes), and s3proxy's temporary names add up to 85 bytes to it ({@code <name>-<uuid>},
 * {@code .mpus-<upload id>-<name>-stub-<uuid>}), so a part may be at most 170 bytes. Reading or
 * deleting such a key finds nothing, as S3 would.
 */
final class KeyLengthLimits extends ForwardingBlobStore {

  /** S3's own limit on a whole key, in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  /** A file name's 255 bytes, less the room s3proxy's temporary names need around a part. */
  static final int MAX_PART_BYTES = 170;

  KeyLengthLimits(BlobStore blobStore) {
    super(blobStore);
  }

  /** Why {@code key} cannot be stored, when it cannot. */
  static Optional<String> problem(String key) {
    if (key == null) {
      return Optional.empty();
    }
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_KEY_BYTES) {
      return Optional.of(
          "Your key is too long: "
              + bytes
              + " bytes, and a key may be at most "
              + MAX_KEY_BYTES
              + " bytes.");
    }
    for (String part : key.split("/", -1)) {
      int partBytes = part.getBytes(StandardCharsets.UTF_8).length;
      if (partBytes > MAX_PART_BYTES) {
        return Optional.of(
            "Your key is too long: one of its '/'-separated parts is "
                + partBytes
                + " bytes, and this endpoint stores each part in a file name, which leaves room for "
                + MAX_PART_BYTES
                + " bytes at most.");
      }
    }
    return Optional.empty();
  }

  private static void requireStorable(String key) {
    Optional<String> problem = problem(key);
    if (problem.isPresent()) {
      throw (S3Exception)
          S3Exception.builder()
              .statusCode(400)
              .message(problem.get())
              .awsErrorDetails(
                  AwsErrorDetails.builder()
                      .serviceName("S3")
                      .errorCode("KeyTooLongError")
                      .errorMessage(problem.get())
                      .build())
              .build();
    }
  }

  private static void requireFindable(String bucket, String key) {
    if (problem(key).isPresent()) {
      throw S3Exceptions.noSuchKey(bucket, key, null);
    }
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
    requireStorable(request.key());
    return super.putBlob(request, input);
  }

  @Override
  public CopyObjectResponse copyBlob(CopyObjectRequest request) {
    requireFindable(request.sourceBucket(), request.sourceKey());
    requireStorable(request.destinationKey());
    return super.copyBlob(request);
  }

  @Override
  public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
    requireStorable(request.key());
    return super.initiateMultipartUpload(request);
  }

  @Override
  public boolean blobExists(String container, String name) {
    return problem(name).isEmpty() && super.blobExists(container, name);
  }

  @Override
  public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
    requireFindable(request.bucket(), request.key());
    return super.blobMetadata(request);
  }

  @Override
  public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
    requireFindable(request.bucket(), request.key());
    return super.getBlob(request);
  }

  @Override
  public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
    if (problem(request.key()).isPresent()) {
      // S3 answers a delete of a key that is not there with success.
      return DeleteObjectResponse.builder().build();
    }
    return super.removeBlob(request);
  }

  @Override
  public ObjectCannedACL getBlobAccess(String container, String name) {
    requireFindable(container, name);
    return super.getBlobAccess(container, name);
  }

  @Override
  public ObjectCannedACL getBlobAccess(String container, String name, String versionId) {
    requireFindable(container, name);
    return super.getBlobAccess(container, name, versionId);
  }
}
