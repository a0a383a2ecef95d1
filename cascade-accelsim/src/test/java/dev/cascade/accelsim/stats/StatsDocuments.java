package dev.cascade.accelsim.stats;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes logs as one stats document, the way {@code cascade stats} drives a {@link StatsWriter}.
 */
final class StatsDocuments {

  /** The small log of {@code cascade stats}' tests: two kernels of the same name, then the exit. */
  static final String SMALL_LOG =
      """
      Accel-Sim [build accelsim-commit-abc]
              *** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-123] ***
      launching kernel name: first uid: 1 cuda_stream_id: 0
      kernel_name = first\s
      kernel_launch_uid = 1\s
      gpu_sim_cycle = 100
      gpu_sim_insn = 250
      gpu_tot_sim_cycle = 100
      gpu_tot_sim_insn = 250
      gpu_occupancy = 12.3456%\s
      Row_Bus_Util =  0.000025\s
      L2_cache_bank[0]: Access = 12, Miss = 10, Miss_rate = 0.833, Pending_hits = 0, Reservation_fails = 0
      gpgpu_silicon_slowdown = 124150x
      launching kernel name: first uid: 2 cuda_stream_id: 0
      kernel_name = first\s
      kernel_launch_uid = 2\s
      gpu_sim_cycle = 50
      gpu_sim_insn = 200
      gpu_tot_sim_cycle = 150
      gpu_tot_sim_insn = 450
      gpgpu_silicon_slowdown = 1x
      GPGPU-Sim: *** exit detected ***
      """;

  /** The real Accel-Sim logs, when the fixtures are there. */
  static final Path REAL_LOGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/real-logs");

  private StatsDocuments() {}

  /** The document {@code format} writes for logs given as name, text, name, text, ... */
  static String write(Function<Writer, StatsWriter> format, String... namesAndLogs) {
    Map<String, byte[]> logs = new LinkedHashMap<>();
    for (int i = 0; i < namesAndLogs.length; i += 2) {
      logs.put(namesAndLogs[i], namesAndLogs[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return write(format, logs);
  }

  /** The document {@code format} writes for log files, each named by its file name. */
  static String writeFiles(Function<Writer, StatsWriter> format, Path... files) throws IOException {
    Map<String, byte[]> logs = new LinkedHashMap<>();
    for (Path file : files) {
      logs.put(file.getFileName().toString(), Files.readAllBytes(file));
    }
    return write(format, logs);
  }

  private static String write(Function<Writer, StatsWriter> format, Map<String, byte[]> logs) {
    StringWriter text = new StringWriter();
    StatsWriter writer = format.apply(text);
    try {
      writer.begin();
      for (Map.Entry<String, byte[]> log : logs.entrySet()) {
        writer.beginFile(log.getKey());
        KernelStatsParser parser = new KernelStatsParser(writer);
        parser.feed(log.getValue());
        writer.endFile(parser.finish());
      }
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return text.toString();
  }

  /** SHA-256 of {@code text}'s UTF-8 bytes, in hex. */
  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
