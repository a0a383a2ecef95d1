package dev.cascade.cli;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads a {@link PushPlan} with the AWS SDK's S3 client, one file after another in the plan's
 * order: files up to {@value #MULTIPART_THRESHOLD_MIB} MiB in one {@code PUT}, bigger ones as a
 * multipart upload of {@value #PART_SIZE_MIB} MiB parts (aborted if a part fails), reporting every
 * byte sent to an {@link UploadProgress}. A request the SDK retries reads its bytes again, which
 * the progress does not count twice.
 */
final class TraceUploader {

  static final int MULTIPART_THRESHOLD_MIB = 16;
  static final int PART_SIZE_MIB = 8;
  private static final long MULTIPART_THRESHOLD = (long) MULTIPART_THRESHOLD_MIB << 20;
  private static final long PART_SIZE = (long) PART_SIZE_MIB << 20;
  private static final String CONTENT_TYPE = "application/octet-stream";

  private final S3Client s3;
  private final String bucket;
  private final UploadProgress progress;
  private long sent; // bytes of finished requests

  TraceUploader(S3Client s3, String bucket, UploadProgress progress) {
    this.s3 = s3;
    this.bucket = bucket;
    this.progress = progress;
  }

  /** Uploads every file of {@code plan} below {@code prefix} ({@code accelsim-traces/<id>/}). */
  void upload(String prefix, PushPlan plan) {
    for (PushPlan.Entry entry : plan.files()) {
      progress.fileStarted(entry.name());
      String key = prefix + entry.name();
      if (entry.size() > MULTIPART_THRESHOLD && entry.source() != null) {
        putMultipart(key, entry);
      } else {
        put(key, entry);
      }
      progress.fileDone(entry.name(), entry.size(), sent);
    }
    progress.finished();
  }

  private void put(String key, PushPlan.Entry entry) {
    s3.putObject(
        b -> b.bucket(bucket).key(key).contentType(CONTENT_TYPE),
        RequestBody.fromContentProvider(
            () -> counted(open(entry, 0, entry.size())), entry.size(), CONTENT_TYPE));
    sent += entry.size();
  }

  private void putMultipart(String key, PushPlan.Entry entry) {
    String uploadId =
        s3.createMultipartUpload(b -> b.bucket(bucket).key(key).contentType(CONTENT_TYPE))
            .uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>();
      int number = 1;
      for (long offset = 0; offset < entry.size(); offset += PART_SIZE, number++) {
        long length = Math.min(PART_SIZE, entry.size() - offset);
        long from = offset;
        int part = number;
        String eTag =
            s3.uploadPart(
                    b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(part),
                    RequestBody.fromContentProvider(
                        () -> counted(open(entry, from, length)), length, CONTENT_TYPE))
                .eTag();
        sent += length;
        parts.add(CompletedPart.builder().partNumber(part).eTag(eTag).build());
      }
      s3.completeMultipartUpload(
          b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
    } catch (RuntimeException e) {
      try {
        s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } catch (RuntimeException abort) {
        e.addSuppressed(abort);
      }
      throw e;
    }
  }

  /** The bytes {@code [offset, offset + length)} of the entry. */
  private static InputStream open(PushPlan.Entry entry, long offset, long length) {
    if (entry.source() == null) {
      return new ByteArrayInputStream(entry.content(), (int) offset, (int) length);
    }
    try {
      FileChannel channel = FileChannel.open(entry.source(), StandardOpenOption.READ);
      channel.position(offset);
      return new Limited(Channels.newInputStream(channel), length);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read \"" + entry.source() + "\": " + e, e);
    }
  }

  /** {@code in}, reporting {@link #sent} plus what this attempt has read so far. */
  private InputStream counted(InputStream in) {
    long base = sent;
    return new FilterInputStream(in) {
      private long read;

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          advance(1);
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
          advance(n);
        }
        return n;
      }

      private void advance(int n) {
        read += n;
        progress.bytesSent(base + read);
      }
    };
  }

  /** At most {@code limit} bytes of {@code in}. */
  private static final class Limited extends FilterInputStream {
    private long left;

    Limited(InputStream in, long limit) {
      super(in);
      this.left = limit;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = super.read(buffer, offset, (int) Math.min(length, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(Math.min(n, left));
      left -= skipped;
      return skipped;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(super.available(), left);
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }
}
