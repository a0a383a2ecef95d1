package dev.cascade.s3;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/** Uploads the way a profiler does: the AWS SDK v2 S3 client, with its default settings. */
final class Uploads {

  static final String BUCKET = "cascade";
  static final int PART_SIZE = 8 << 20;

  private Uploads() {}

  /** A client for {@code endpoint}: path-style, any region, the SDK's default checksums. */
  static S3Client client(URI endpoint, String accessKey, String secretKey) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  static S3Client client(EmbeddedS3 s3) {
    return client(s3.endpoint(), s3.credentials().accessKey(), s3.credentials().secretKey());
  }

  static String traceKey(String traceId, String relative) {
    return "accelsim-traces/" + traceId + "/" + relative;
  }

  static void put(S3Client s3, String key, String content) {
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(content));
  }

  static void put(S3Client s3, String key, Path file) {
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromFile(file));
  }

  /** Starts a multipart upload of {@code key}; returns its upload id. */
  static String startMultipart(S3Client s3, String key) {
    return s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
  }

  /** Uploads part {@code number} (from 1) of {@code file}, {@link #PART_SIZE} bytes a part. */
  static CompletedPart uploadPart(S3Client s3, String key, String uploadId, Path file, int number) {
    try {
      long size = Files.size(file);
      long offset = (long) (number - 1) * PART_SIZE;
      int length = (int) Math.min(PART_SIZE, size - offset);
      byte[] bytes = new byte[length];
      try (var channel = Files.newByteChannel(file)) {
        channel.position(offset);
        var buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
          // read the whole part
        }
      }
      String eTag =
          s3.uploadPart(
                  b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(number),
                  RequestBody.fromBytes(bytes))
              .eTag();
      return CompletedPart.builder().partNumber(number).eTag(eTag).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int partCount(Path file) throws IOException {
    return (int) ((Files.size(file) + PART_SIZE - 1) / PART_SIZE);
  }

  static void completeMultipart(
      S3Client s3, String key, String uploadId, List<CompletedPart> parts) {
    s3.completeMultipartUpload(
        b -> b.bucket(BUCKET).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
  }

  /** Uploads {@code file} to {@code key} as a multipart upload of {@link #PART_SIZE} parts. */
  static void putMultipart(S3Client s3, String key, Path file) throws IOException {
    String uploadId = startMultipart(s3, key);
    List<CompletedPart> parts = new ArrayList<>();
    for (int n = 1; n <= partCount(file); n++) {
      parts.add(uploadPart(s3, key, uploadId, file, n));
    }
    completeMultipart(s3, key, uploadId, parts);
  }

  /**
   * Uploads every file under {@code folder} to {@code accelsim-traces/<traceId>/}, keeping relative
   * paths, {@code metadata.json} last, files over 16 MiB as multipart uploads.
   */
  static void uploadTrace(S3Client s3, String traceId, Path folder) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files =
          walk.filter(Files::isRegularFile)
              .sorted(
                  Comparator.comparing(
                          (Path p) -> p.getFileName().toString().equals("metadata.json"))
                      .thenComparing(Path::toString))
              .toList();
    }
    for (Path file : files) {
      String relative = folder.relativize(file).toString().replace('\\', '/');
      String key = traceKey(traceId, relative);
      if (Files.size(file) > (16 << 20)) {
        putMultipart(s3, key, file);
      } else {
        put(s3, key, file);
      }
    }
  }

  /**
   * A processed trace folder like a profiler leaves it: {@code traces/kernelslist.g}, {@code
   * kernels} small {@code traces/kernel-N.traceg} files, and {@code metadata.json}.
   */
  static Path writeTrace(Path folder, int kernels, String metadata) throws IOException {
    Path traces = Files.createDirectories(folder.resolve("traces"));
    StringBuilder list = new StringBuilder();
    for (int k = 1; k <= kernels; k++) {
      list.append("kernel-").append(k).append(".traceg\n");
      Files.writeString(traces.resolve("kernel-" + k + ".traceg"), header(k) + block(4));
    }
    Files.writeString(traces.resolve("kernelslist.g"), list);
    Files.writeString(folder.resolve("metadata.json"), metadata);
    return folder;
  }

  /** A valid kernel file of at least {@code minBytes}: a header, then warps of one instruction. */
  static Path writeBigKernel(Path file, int kernelId, long minBytes) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file);
        Writer writer =
            new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.US_ASCII), 1 << 16)) {
      writer.write(header(kernelId));
      writer.write("#BEGIN_TB\n\nthread block = 0,0,0\n\n");
      long written = 0;
      for (int warp = 0; written < minBytes; warp++) {
        String line =
            "warp = " + warp + "\ninsts = 1\n0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 \n\n";
        writer.write(line);
        written += line.length();
      }
      writer.write("#END_TB\n");
    }
    return file;
  }

  static String metadata(String status) {
    return "{\"status\": \"" + status + "\", \"trace_gpu_arch\": \"sm_90\"}";
  }

  private static String header(int kernelId) {
    return "-kernel name = kernel_"
        + kernelId
        + "\n-kernel id = "
        + kernelId
        + "\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"
        + "-binary version = 90\n-cuda stream id = 0\n\n#traces format = [line_num] PC mask"
        + " dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?]"
        + " [mem_addresses] immediate\n\n";
  }

  private static String block(int warps) {
    StringBuilder text = new StringBuilder("#BEGIN_TB\n\nthread block = 0,0,0\n\n");
    for (int warp = 0; warp < warps; warp++) {
      text.append("warp = ")
          .append(warp)
          .append("\ninsts = 1\n0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 \n\n");
    }
    return text.append("#END_TB\n").toString();
  }
}
