package dev.cascade.s3;

import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.SdkResponses;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetBucketAclRequest;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.GetObjectAclRequest;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Every bucket and object private, whatever the files' permissions say. s3proxy's file system store
 * derives S3 ACLs from POSIX permission bits: a bucket folder readable by others (mode 755, the
 * usual umask) is a public-read bucket, whose listing anyone may fetch unsigned, and a file
 * readable by others (such as the {@code kernelslist.g} the post-processor writes) a public-read
 * object. So unsigned requests are always refused here, and only signed ones are served; and {@code
 * GetBucketAcl} / {@code GetObjectAcl} say private too (s3proxy asks the store for those through
 * other methods, which the file system store answers from the permission bits).
 */
final class PrivateBlobStore extends ForwardingBlobStore {

  PrivateBlobStore(BlobStore blobStore) {
    super(blobStore);
  }

  @Override
  public BucketCannedACL getContainerAccess(String container) {
    super.getContainerAccess(container); // NoSuchBucket for a bucket that is not there
    return BucketCannedACL.PRIVATE;
  }

  @Override
  public ObjectCannedACL getBlobAccess(String container, String name) {
    super.getBlobAccess(container, name); // NoSuchKey for an object that is not there
    return ObjectCannedACL.PRIVATE;
  }

  @Override
  public ObjectCannedACL getBlobAccess(String container, String name, String versionId) {
    super.getBlobAccess(container, name, versionId);
    return ObjectCannedACL.PRIVATE;
  }

  @Override
  public GetBucketAclResponse getContainerAcl(GetBucketAclRequest request) {
    return SdkResponses.bucketAcl(getContainerAccess(request.bucket()));
  }

  @Override
  public GetObjectAclResponse getBlobAcl(GetObjectAclRequest request) {
    return SdkResponses.objectAcl(
        request.versionId() == null
            ? getBlobAccess(request.bucket(), request.key())
            : getBlobAccess(request.bucket(), request.key(), request.versionId()));
  }
}
