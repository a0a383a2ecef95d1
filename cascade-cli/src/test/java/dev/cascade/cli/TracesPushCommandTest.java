package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class TracesPushCommandTest {

  private static final String NL = System.lineSeparator();

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(Map<String, String> environment, String... args) {
    CommandLine commandLine =
        new CommandLine(
            new CascadeCommand(),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                K created = CommandLine.defaultFactory().create(type);
                if (created instanceof TracesPushCommand push) {
                  push.environment = environment;
                  push.interactive = false;
                }
                return created;
              }
            });
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @Test
  void plan_ofAProfilerFolder_keepsPathsAndUploadsMetadataLast() throws IOException {
    Files.createDirectories(dir.resolve("traces"));
    Files.writeString(dir.resolve("metadata.json"), "{\"status\": \"complete\"}");
    Files.writeString(dir.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(dir.resolve("traces/kernel-2.traceg"), "b");
    Files.writeString(dir.resolve("traces/kernel-1.traceg"), "a");
    Files.writeString(dir.resolve("traces/.kernel-3.traceg.swp"), "hidden");
    Files.createDirectories(dir.resolve(".cache"));
    Files.writeString(dir.resolve(".cache/x"), "hidden");

    PushPlan plan = PushPlan.of(dir);

    assertThat(plan.files())
        .extracting(PushPlan.Entry::name)
        .containsExactly(
            "traces/kernel-1.traceg",
            "traces/kernel-2.traceg",
            "traces/kernelslist.g",
            "metadata.json");
    assertThat(plan.generatedMetadata()).isFalse();
    assertThat(plan.bare()).isFalse();
  }

  @Test
  void plan_ofABareTraceFolder_putsFilesUnderTracesAndMakesMetadata() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg.xz\n");
    Files.writeString(dir.resolve("kernel-1.traceg.xz"), "x");
    Files.writeString(dir.resolve("stats.csv"), "s");

    PushPlan plan = PushPlan.of(dir);

    assertThat(plan.files())
        .extracting(PushPlan.Entry::name)
        .containsExactly(
            "traces/kernel-1.traceg.xz",
            "traces/stats.csv",
            "traces/kernelslist.g",
            "metadata.json");
    assertThat(plan.generatedMetadata()).isTrue();
    String metadata = new String(plan.files().getLast().content(), StandardCharsets.UTF_8);
    assertThat(metadata) // no version to read in "x": Cascade's default, as cascade run says
        .isEqualTo("{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\"}" + NL);
    assertThat(plan.totalBytes()).isEqualTo(19 + 1 + 1 + metadata.length());
  }

  @Test
  void plan_ofABareA100Folder_labelsItSm80AsRunDoes() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(
        dir.resolve("kernel-1.traceg"),
        "-kernel name = _Z4axpyPf\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
            + "-binary version = 80\n\n#traces\n");

    PushPlan plan = PushPlan.of(dir);

    assertThat(new String(plan.files().getLast().content(), StandardCharsets.UTF_8))
        .isEqualTo("{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_80\"}" + NL)
        .isEqualTo(GeneratedMetadata.forTraces(dir));
  }

  @Test
  void plan_ofABareAccelSim2FolderWithPerContextLists_isATrace_listsLast() throws IOException {
    Files.writeString(dir.resolve("kernelslist_ctx_0x1"), "kernel-1-ctx_0x1.trace\n");
    Files.writeString(dir.resolve("kernel-1-ctx_0x1.trace"), "x");

    PushPlan plan = PushPlan.of(dir);

    assertThat(plan.files())
        .extracting(PushPlan.Entry::name)
        .containsExactly(
            "traces/kernel-1-ctx_0x1.trace", "traces/kernelslist_ctx_0x1", "metadata.json");
  }

  @Test
  void plan_ofABareTraceFolder_keepsTheHardwareCsvsBesideTraces() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg.xz\n");
    Files.writeString(dir.resolve("kernel-1.traceg.xz"), "x");
    Files.createDirectories(dir.resolve("hardware"));
    Files.writeString(dir.resolve("hardware/ncu.csv"), "\"ID\",\"Kernel Name\"\n");

    PushPlan plan = PushPlan.of(dir);

    assertThat(plan.files())
        .extracting(PushPlan.Entry::name)
        .containsExactly(
            "hardware/ncu.csv",
            "traces/kernel-1.traceg.xz",
            "traces/kernelslist.g",
            "metadata.json");
  }

  @Test
  void plan_refusesMetadataSayingTheProfilerStillRuns() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(dir.resolve("metadata.json"), "{\"status\": \"running\"}");

    assertThatThrownBy(() -> PushPlan.of(dir))
        .isInstanceOfSatisfying(
            PushException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(1);
              assertThat(e.getMessage()).contains("\"status\": \"running\"");
            });
  }

  @Test
  void plan_refusesMetadataThatIsNotJson() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(dir.resolve("metadata.json"), "{not json");

    assertThatThrownBy(() -> PushPlan.of(dir))
        .isInstanceOf(PushException.class)
        .hasMessageContaining("is not valid JSON");
  }

  @Test
  void push_ofAFolderWithoutATrace_isAUsageError() {
    int exit =
        run(
            Map.of("CASCADE_S3_ACCESS_KEY", "a", "CASCADE_S3_SECRET_KEY", "b"),
            "traces",
            "push",
            dir.toString(),
            "--id",
            "t1",
            "--no-wait");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("is not a trace folder").contains(dir.toString());
  }

  @Test
  void push_withAnInvalidId_isAUsageError() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");

    int exit = run(Map.of(), "traces", "push", dir.toString(), "--id", "../up", "--no-wait");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("../up").contains("--id");
  }

  @Test
  void push_withoutTheKeyPair_saysWhichVariablesToSet() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");

    int exit = run(Map.of(), "traces", "push", dir.toString(), "--id", "t1", "--no-wait");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("CASCADE_S3_ACCESS_KEY").contains("CASCADE_S3_SECRET_KEY");
  }

  @Test
  void push_withABadEndpoint_isAUsageError() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");

    int exit =
        run(
            Map.of("CASCADE_S3_ACCESS_KEY", "a", "CASCADE_S3_SECRET_KEY", "b"),
            "traces",
            "push",
            dir.toString(),
            "--id",
            "t1",
            "--endpoint",
            "ftp://x",
            "--no-wait");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("--endpoint \"ftp://x\" is not an http://");
  }

  @Test
  void traces_withoutASubcommand_showsPushAsAUsageError() {
    int exit = run(Map.of(), "traces");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("push");
  }

  @Test
  void progress_onATerminal_redrawsOneBar() {
    StringWriter bar = new StringWriter();
    long[] now = {0};
    UploadProgress progress =
        new UploadProgress(new PrintWriter(bar), true, 2, 4 << 20, () -> now[0]);

    progress.fileStarted("kernel-1.traceg");
    now[0] += 200_000_000L;
    progress.bytesSent(1 << 20);
    progress.fileDone("kernel-1.traceg", 2 << 20, 2 << 20);
    progress.fileStarted("metadata.json");
    progress.fileDone("metadata.json", 2 << 20, 4 << 20);
    progress.finished();

    assertThat(bar.toString())
        .contains("\r[######------------------]  25%  1.0/4.0 MiB  0/2  kernel-1.traceg")
        .contains("\r[########################] 100%  4.0/4.0 MiB  2/2  metadata.json")
        .endsWith(System.lineSeparator());
  }

  @Test
  void progress_elsewhere_printsALinePerFile() {
    StringWriter lines = new StringWriter();
    UploadProgress progress = new UploadProgress(new PrintWriter(lines), false, 2, 3000, () -> 0);

    progress.fileStarted("traces/kernel-1.traceg");
    progress.bytesSent(100);
    progress.fileDone("traces/kernel-1.traceg", 2000, 2000);
    progress.fileStarted("metadata.json");
    progress.fileDone("metadata.json", 1000, 3000);
    progress.finished();

    assertThat(lines.toString().lines())
        .containsExactly(
            "  traces/kernel-1.traceg  2.0 KiB  (1/2)", "  metadata.json  1000 B  (2/2)");
  }
}
