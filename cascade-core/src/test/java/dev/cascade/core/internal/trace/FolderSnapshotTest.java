package dev.cascade.core.internal.trace;

import static dev.cascade.core.internal.trace.TestTraces.append;
import static dev.cascade.core.internal.trace.TestTraces.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FolderSnapshotTest {

  private static final String UUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

  @TempDir Path folder;
  @TempDir Path outside;

  @Test
  void take_splitsTraceFilesFromUploadBookkeeping() {
    write(folder.resolve("metadata.json"), "{}");
    write(folder.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    write(folder.resolve("traces/kernel-1.traceg-" + UUID), "partial");
    write(folder.resolve(".mpus-" + UUID + "-x/part-1"), "part");

    FolderSnapshot snapshot = FolderSnapshot.take(folder, List.of());

    assertThat(snapshot.content()).containsOnlyKeys("metadata.json", "traces/kernelslist.g");
    assertThat(snapshot.activity())
        .containsOnlyKeys("traces/kernel-1.traceg-" + UUID, ".mpus-" + UUID + "-x/part-1");
    assertThat(snapshot.sizeBytes()).isEqualTo(2 + 16);
    assertThat(snapshot.hasContent()).isTrue();
    assertThat(snapshot.contains("traces/kernelslist.g")).isTrue();
  }

  @Test
  void take_changesWhenAnyFileGrowsAppearsOrVanishes() throws IOException {
    write(folder.resolve("metadata.json"), "{}");
    write(folder.resolve("traces/kernel-1.traceg-" + UUID), "a");
    FolderSnapshot first = FolderSnapshot.take(folder, List.of());
    assertThat(FolderSnapshot.take(folder, List.of())).isEqualTo(first);

    append(folder.resolve("traces/kernel-1.traceg-" + UUID), "b");
    FolderSnapshot grown = FolderSnapshot.take(folder, List.of());
    assertThat(grown).isNotEqualTo(first);

    write(folder.resolve("traces/kernelslist.g"), "");
    FolderSnapshot added = FolderSnapshot.take(folder, List.of());
    assertThat(added).isNotEqualTo(grown);

    Files.delete(folder.resolve("traces/kernelslist.g"));
    assertThat(FolderSnapshot.take(folder, List.of())).isNotEqualTo(added);
  }

  @Test
  void take_countsOtherFoldersAsActivityOnly() {
    write(folder.resolve("metadata.json"), "{}");
    Path parts = outside.resolve("t");
    write(parts.resolve("traces/kernel-2.traceg-1"), "part one");

    FolderSnapshot snapshot = FolderSnapshot.take(folder, List.of(parts));

    assertThat(snapshot.content()).containsOnlyKeys("metadata.json");
    assertThat(snapshot.activity()).containsOnlyKeys(parts + "/traces/kernel-2.traceg-1");
    assertThat(snapshot.sizeBytes()).isEqualTo(2);
  }

  @Test
  void take_neverFollowsSymbolicLinks() throws IOException {
    write(outside.resolve("secret/kernelslist.g"), "kernel-1.traceg\n");
    Files.createDirectories(folder.resolve("traces"));
    Files.createSymbolicLink(folder.resolve("traces/linked"), outside.resolve("secret"));
    Files.createSymbolicLink(
        folder.resolve("metadata.json"), outside.resolve("secret/kernelslist.g"));

    FolderSnapshot snapshot = FolderSnapshot.take(folder, List.of());

    assertThat(snapshot.content()).isEmpty();
    assertThat(snapshot.hasContent()).isFalse();
  }

  @Test
  void take_ofAMissingFolder_isEmpty() {
    assertThat(FolderSnapshot.take(folder.resolve("nope"), List.of()))
        .isEqualTo(FolderSnapshot.empty());
  }
}
