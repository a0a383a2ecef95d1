package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** What abandoned uploads leave is removed once it is old, and never an upload still at work. */
final class StaleUploadsIT {

  private static final String TEMP = "-0b7e6b4e-9d0c-4e55-9a3e-8f1f7c0d2a11";

  @TempDir Path dataDir;

  @Test
  void start_removesAbandonedMultipartUploadsAndObjectsInFlightOlderThanTheStaleAge()
      throws IOException {
    Path bucket = dataDir.resolve("s3/cascade");
    String oldKey = "accelsim-traces/t1/traces/kernel-1.traceg";
    String freshKey = "accelsim-traces/t2/traces/kernel-1.traceg";
    try (EmbeddedS3 s3 = EmbeddedS3.builder().dataDir(dataDir).port(0).build().start();
        S3Client client = Uploads.client(s3)) {
      String oldUpload =
          client.createMultipartUpload(b -> b.bucket("cascade").key(oldKey)).uploadId();
      client.uploadPart(
          b -> b.bucket("cascade").key(oldKey).uploadId(oldUpload).partNumber(1),
          software.amazon.awssdk.core.sync.RequestBody.fromString("part one"));
      Instant twoDaysAgo = Instant.now().minus(Duration.ofDays(2));
      ageEverything(bucket, twoDaysAgo);
      client.createMultipartUpload(b -> b.bucket("cascade").key(freshKey));
      Uploads.put(client, "accelsim-traces/t1/metadata.json", "{}");
    }
    Path oldInFlight =
        Files.writeString(bucket.resolve("accelsim-traces/t1/kernel-2.traceg" + TEMP), "x");
    Files.setLastModifiedTime(oldInFlight, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
    Path freshInFlight =
        Files.writeString(bucket.resolve("accelsim-traces/t1/kernel-3.traceg" + TEMP), "x");
    Path oldObject = bucket.resolve("accelsim-traces/t1/metadata.json");
    Files.setLastModifiedTime(oldObject, FileTime.from(Instant.now().minus(Duration.ofDays(9))));

    try (EmbeddedS3 s3 = EmbeddedS3.builder().dataDir(dataDir).port(0).build().start();
        S3Client client = Uploads.client(s3)) {
      List<String> uploads =
          client.listMultipartUploads(b -> b.bucket("cascade")).uploads().stream()
              .map(upload -> upload.key())
              .toList();

      assertThat(uploads).containsExactly(freshKey);
    }
    assertThat(oldInFlight).doesNotExist();
    assertThat(freshInFlight).exists();
    assertThat(oldObject).exists();
    assertThat(files(bucket)).noneMatch(name -> name.contains("t1/traces/kernel-1.traceg"));
    assertThat(files(bucket)).anyMatch(name -> name.contains("t2/traces/kernel-1.traceg"));
  }

  private static void ageEverything(Path root, Instant when) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.setLastModifiedTime(path, FileTime.from(when));
      }
    }
  }

  private static List<String> files(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).toList();
    }
  }
}
