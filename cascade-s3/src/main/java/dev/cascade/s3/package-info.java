/**
 * Cascade's embedded S3-compatible endpoint, {@link dev.cascade.s3.EmbeddedS3}, which writes
 * uploads as plain files where the trace store watches for them.
 */
package dev.cascade.s3;
