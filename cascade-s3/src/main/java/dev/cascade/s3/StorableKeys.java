package dev.cascade.s3;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
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
 * Keys the file system cannot hold are refused with a 400 S3 error, which clients do not retry,
 * instead of the file system's error as a 500. A key too long is S3's {@code KeyTooLongError}; a
 * key that is no plain file path ({@code .}, {@code ..} or empty parts), that names one of the
 * endpoint's temporary files ({@code <name>-<uuid>}), or that would need a file where a folder of
 * other keys is (or the other way round) is {@code InvalidArgument}. S3 allows keys of up to 1024
 * bytes; here each {@code /}-separated part is also a file name (at most 255 bytes), and s3proxy's
 * temporary names add up to 85 bytes to it ({@code <name>-<uuid>}, {@code .mpus-<upload
 * id>-<name>-stub-<uuid>}), so a part may be at most 170 bytes. Reading or deleting such a key
 * finds nothing, as S3 would.
 */
final class StorableKeys extends ForwardingBlobStore {

  /** S3's own limit on a whole key, in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  /** A file name's 255 bytes, less the room s3proxy's temporary names need around a part. */
  static final int MAX_PART_BYTES = 170;

  private static final Pattern TEMPORARY_NAME =
      Pattern.compile(
          ".+-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final Path root;

  /**
   * @param root the folder that holds a folder per bucket, each object a file in it
   */
  StorableKeys(BlobStore blobStore, Path root) {
    super(blobStore);
    this.root = root;
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

  /** Why {@code key} is no plain file path here, when it is not. */
  static Optional<String> notAPath(String key) {
    if (key == null) {
      return Optional.empty();
    }
    String[] parts = key.split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      boolean trailingSlash = i == parts.length - 1 && i > 0 && part.isEmpty();
      if (part.equals(".") || part.equals("..") || (part.isEmpty() && !trailingSlash)) {
        return Optional.of(
            "The key \""
                + key
                + "\" has a part that is \""
                + part
                + "\": this endpoint stores each key as a file path, so no part may be empty, \".\""
                + " or \"..\".");
      }
      // Hidden names are s3proxy's own (its multipart stubs), never a trace's files.
      if (!part.startsWith(".") && TEMPORARY_NAME.matcher(part).matches()) {
        return Optional.of(
            "The key \""
                + key
                + "\" has a part named like the endpoint's own temporary files (<name>-<uuid>);"
                + " rename it.");
      }
    }
    return Optional.empty();
  }

  /** Why {@code key} cannot be a file in {@code bucket} as it is now, when it cannot. */
  private Optional<String> folderConflict(String bucket, String key) {
    Path folder = root.resolve(bucket);
    String[] parts = key.split("/");
    Path at = folder;
    for (int i = 0; i < parts.length; i++) {
      at = at.resolve(parts[i]);
      boolean last = i == parts.length - 1;
      if (!last && Files.isRegularFile(at, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of(
            "The key \""
                + key
                + "\" needs a folder where the object \""
                + folder.relativize(at)
                + "\" is: this endpoint stores keys as file paths, so a key cannot be both an"
                + " object and a prefix of others.");
      }
      if (last && !key.endsWith("/") && Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of(
            "The key \""
                + key
                + "\" is a prefix of other keys: this endpoint stores keys as file paths, so it"
                + " cannot also be an object.");
      }
    }
    return Optional.empty();
  }

  private void requireStorable(String bucket, String key) {
    Optional<String> tooLong = problem(key);
    if (tooLong.isPresent()) {
      throw refusal("KeyTooLongError", tooLong.get());
    }
    Optional<String> refused = notAPath(key).or(() -> folderConflict(bucket, key));
    if (refused.isPresent()) {
      throw refusal("InvalidArgument", refused.get());
    }
  }

  private static S3Exception refusal(String code, String message) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(400)
            .message(message)
            .awsErrorDetails(
                AwsErrorDetails.builder()
                    .serviceName("S3")
                    .errorCode(code)
                    .errorMessage(message)
                    .build())
            .build();
  }

  private static void requireFindable(String bucket, String key) {
    if (problem(key).isPresent() || notAPath(key).isPresent()) {
      throw S3Exceptions.noSuchKey(bucket, key, null);
    }
  }

  /**
   * Stores the object; when that fails (a body that breaks off or is not what its request says),
   * the folders made for it and left empty are removed too, so a refused upload leaves nothing.
   */
  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
    requireStorable(request.bucket(), request.key());
    List<Path> made = missingFolders(request.bucket(), request.key());
    try {
      return super.putBlob(request, input);
    } catch (RuntimeException e) {
      removeIfEmpty(made);
      throw e;
    }
  }

  /** The folders {@code key} needs in {@code bucket} that are not there yet, deepest first. */
  private List<Path> missingFolders(String bucket, String key) {
    List<Path> missing = new ArrayList<>();
    Path folder = root.resolve(bucket).resolve(key).getParent();
    Path bucketFolder = root.resolve(bucket);
    while (folder != null
        && folder.startsWith(bucketFolder)
        && !folder.equals(bucketFolder)
        && !Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
      missing.add(folder);
      folder = folder.getParent();
    }
    return missing;
  }

  private static void removeIfEmpty(List<Path> folders) {
    for (Path folder : folders) {
      try {
        Files.deleteIfExists(folder);
      } catch (IOException inUseMeanwhile) {
        // Another upload put a file in it since: it stays.
        return;
      }
    }
  }

  @Override
  public CopyObjectResponse copyBlob(CopyObjectRequest request) {
    requireFindable(request.sourceBucket(), request.sourceKey());
    requireStorable(request.destinationBucket(), request.destinationKey());
    return super.copyBlob(request);
  }

  @Override
  public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
    requireStorable(request.bucket(), request.key());
    return super.initiateMultipartUpload(request);
  }

  /** Upload ids as the file system store makes them: random UUIDs. */
  private static final Pattern UPLOAD_ID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  /**
   * A part of an upload that was begun: an id that is no upload's ({@code never-initiated}, {@code
   * ../../Z}) is S3's 404 {@code NoSuchUpload}, and nothing is written (the store would write the
   * part as a file named after the id, outside the bucket for {@code ../..}).
   */
  @Override
  public software.amazon.awssdk.services.s3.model.UploadPartResponse uploadMultipartPart(
      MultipartUpload upload,
      software.amazon.awssdk.services.s3.model.UploadPartRequest request,
      InputStream input) {
    try {
      requireUpload(upload);
    } catch (S3Exception noSuchUpload) {
      // Read the part before answering: a client that sent "Expect: 100-continue" waits for the
      // go-ahead, and one that answers early races the client's write ("Error writing request
      // body") instead of giving it the 404. S3 reads the body too.
      discard(input);
      throw noSuchUpload;
    }
    return super.uploadMultipartPart(upload, request, input);
  }

  @Override
  public software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse
      completeMultipartUpload(
          MultipartUpload upload,
          software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest request) {
    requireUpload(upload);
    return super.completeMultipartUpload(upload, request);
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) {
    requireUpload(upload);
    super.abortMultipartUpload(upload);
  }

  @Override
  public java.util.List<software.amazon.awssdk.services.s3.model.Part> listMultipartUpload(
      MultipartUpload upload) {
    requireUpload(upload);
    return super.listMultipartUpload(upload);
  }

  private static void discard(InputStream input) {
    try {
      input.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (java.io.IOException clientGone) {
      // The client stopped sending; the 404 is still the answer.
    }
  }

  /** 404 {@code NoSuchUpload} unless {@code upload} was begun and is still open. */
  private void requireUpload(MultipartUpload upload) {
    String id = upload.id();
    String key = upload.blobName();
    boolean open =
        id != null
            && UPLOAD_ID.matcher(id).matches()
            && key != null
            && problem(key).isEmpty()
            && notAPath(key).isEmpty()
            && Files.isRegularFile(
                root.resolve(upload.containerName()).resolve(".mpus-" + id + "-" + key + "-stub"),
                LinkOption.NOFOLLOW_LINKS);
    if (!open) {
      throw (S3Exception)
          software.amazon.awssdk.services.s3.model.NoSuchUploadException.builder()
              .statusCode(404)
              .message("The specified upload does not exist.")
              .awsErrorDetails(
                  AwsErrorDetails.builder()
                      .errorCode("NoSuchUpload")
                      .errorMessage(
                          "The specified upload does not exist. The upload ID may be invalid, or"
                              + " the upload may have been aborted or completed.")
                      .build())
              .build();
    }
  }

  @Override
  public boolean blobExists(String container, String name) {
    return problem(name).isEmpty() && notAPath(name).isEmpty() && super.blobExists(container, name);
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
    if (problem(request.key()).isPresent() || notAPath(request.key()).isPresent()) {
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
