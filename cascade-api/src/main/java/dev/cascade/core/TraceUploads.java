package dev.cascade.core;

import java.util.Objects;

/**
 * Where a Cascade takes trace uploads: an S3 endpoint, the bucket it watches, and the key prefix a
 * trace goes under ({@code <prefix><trace id>/}). A server tells it at {@code GET /api/uploads}.
 *
 * @param endpoint the S3 endpoint's URL, such as {@code http://127.0.0.1:9000}
 * @param bucket the bucket Cascade watches, such as {@code cascade}
 * @param prefix the key prefix of traces, ending in {@code /}, such as {@code accelsim-traces/}
 */
public record TraceUploads(String endpoint, String bucket, String prefix) {

  public TraceUploads {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(prefix, "prefix");
    if (!endpoint.startsWith("http://") && !endpoint.startsWith("https://")) {
      throw new IllegalArgumentException(
          "endpoint must be an http:// or https:// URL; got \"" + endpoint + "\"");
    }
    if (bucket.isBlank()) {
      throw new IllegalArgumentException("bucket must name a bucket; got a blank one");
    }
    if (!prefix.isEmpty() && !prefix.endsWith("/")) {
      throw new IllegalArgumentException("prefix must end in /; got \"" + prefix + "\"");
    }
  }
}
