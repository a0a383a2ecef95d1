package dev.cascade.core.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class UploadFilesTest {

  private static final String UUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "traces/kernelslist.g-" + UUID, // s3proxy writes <key>-<uuid> beside the object
        "metadata.json-3F2504E0-4F89-11D3-9A0C-0305E82C3301",
        "traces/kernel-12.traceg.xz-" + UUID,
        UUID, // the stub named after a multipart upload id
        ".mpus-" + UUID + "-accelsim-traces/t/traces/kernel-1.traceg.xz-1",
        ".mpus-" + UUID + "-x-stub",
        ".s3proxy-mpu-stub-" + UUID,
        "traces/kernel-1.traceg.xz.3c1f9a2b.partial", // rclone's <name>.<hash>.partial
        "metadata.json.partial",
        "traces/.kernel-1.traceg.xz.tmp", // hidden temporary files
        "traces/kernel-1.traceg.tmp",
        ".DS_Store",
        "traces/.hidden/kernel-1.traceg",
      })
  void bookkeeping_isNeverTraceContent(String relative) {
    assertThat(UploadFiles.isUploadBookkeeping(Path.of(relative))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "metadata.json",
        "traces/kernelslist",
        "traces/kernelslist.g",
        "traces/kernel-1.trace",
        "traces/kernel-1.trace.xz",
        "traces/kernel-1.traceg",
        "traces/kernel-1023.traceg.xz",
        "traces/stats.csv",
        "traces/kernel-3f2504e0.traceg", // part of a UUID is no UUID
        "notes-3f2504e0-4f89-11d3-9a0c.txt",
      })
  void traceFiles_areContent(String relative) {
    assertThat(UploadFiles.isUploadBookkeeping(Path.of(relative))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {".mpus-" + UUID + "-accelsim-traces"})
  void multipartTreeOfTheTracesPrefix_isRecognised(String name) {
    assertThat(UploadFiles.isMultipartTreeName(name, "accelsim-traces")).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        ".mpus-" + UUID + "-other-prefix",
        ".mpus-not-a-uuid-accelsim-traces",
        "accelsim-traces",
        ".mpus-" + UUID + "-accelsim-traces-stub",
      })
  void otherBucketEntries_areNotTheTracesMultipartTree(String name) {
    assertThat(UploadFiles.isMultipartTreeName(name, "accelsim-traces")).isFalse();
  }
}
