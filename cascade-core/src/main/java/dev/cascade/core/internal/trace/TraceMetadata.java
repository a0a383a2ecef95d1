package dev.cascade.core.internal.trace;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cascade.core.Trace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What Cascade reads from a trace's {@code metadata.json}, the profiler's description of its run.
 * Keys read (every other key is ignored):
 *
 * <ul>
 *   <li>{@code status}: {@code "running"} means the profiler is still at work (the trace stays
 *       uploading), {@code "failed"} fails the trace; any other value, or none, means done;
 *   <li>{@code error}, else {@code reason}, else {@code error_message}: why the profiler failed;
 *   <li>{@code trace_gpu_arch}: the architecture the trace was captured on, a string naming a CUDA
 *       architecture ({@code sm_90} when absent; anything else makes the metadata invalid);
 *   <li>{@code suggested_sim_config}: the GPU config the profiler suggests;
 *   <li>{@code model_name}, else {@code model} (a string, or an object with a {@code name}): the
 *       traced model;
 *   <li>{@code traced_layers}, else {@code layers} (an array of strings, or one string): the traced
 *       layers;
 *   <li>{@code sample}: {@code true} for sample traces, which can be browsed but never run.
 * </ul>
 *
 * @param status the status, lower case; null when metadata gives none
 * @param error the profiler's own error text; null when none
 */
record TraceMetadata(
    String status,
    String error,
    String traceGpuArch,
    String suggestedSimConfig,
    String modelName,
    List<String> tracedLayers,
    boolean sample) {

  static final String FILE = "metadata.json";
  static final String RUNNING = "running";
  static final String FAILED = "failed";

  /** The architectures of CUDA GPUs, as nvcc and Accel-Sim name them ({@code sm_<cc>}). */
  static final List<String> CUDA_ARCHS =
      List.of(
          "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60",
          "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89",
          "sm_90", "sm_100", "sm_101", "sm_103", "sm_110", "sm_120", "sm_121");

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final long MAX_BYTES = 16L * 1024 * 1024;

  TraceMetadata {
    tracedLayers = List.copyOf(tracedLayers);
  }

  /** No metadata yet: the defaults a trace shows until its metadata.json can be read. */
  static TraceMetadata none() {
    return new TraceMetadata(null, null, Trace.DEFAULT_GPU_ARCH, null, null, List.of(), false);
  }

  boolean saysRunning() {
    return RUNNING.equals(status);
  }

  boolean saysFailed() {
    return FAILED.equals(status);
  }

  /**
   * The reason a failed trace shows: the profiler's own error, as it wrote it, when it gave one.
   */
  String failureReason() {
    return error == null ? "metadata.json says \"status\": \"failed\" and gives no error" : error;
  }

  /** The outcome of reading {@code metadata.json}. */
  sealed interface Read permits Absent, Invalid, Parsed {}

  /** There is no {@code metadata.json} (yet). */
  record Absent() implements Read {}

  /** {@code metadata.json} is there but cannot be read; {@code reason} names the file and place. */
  record Invalid(String reason) implements Read {}

  record Parsed(TraceMetadata metadata) implements Read {}

  /** Reads {@code <traceFolder>/metadata.json}. */
  static Read read(Path traceFolder) {
    Path file = traceFolder.resolve(FILE);
    try {
      if (Files.isSymbolicLink(file)) {
        return new Invalid(FILE + " is a symbolic link; upload it as a plain file");
      }
      if (Files.isDirectory(file)) {
        return new Invalid(FILE + " is a folder; upload it as a file holding a JSON object");
      }
      if (!Files.isRegularFile(file)) {
        return new Absent();
      }
      if (Files.size(file) > MAX_BYTES) {
        return new Invalid(
            FILE
                + " is larger than "
                + MAX_BYTES / (1024 * 1024)
                + " MiB; it is not trace metadata");
      }
      JsonNode root;
      try (InputStream in = Files.newInputStream(file)) {
        root = JSON.readTree(in);
      }
      if (root == null || root.isMissingNode()) {
        return new Invalid(FILE + " is empty; expected a JSON object");
      }
      if (!root.isObject()) {
        return new Invalid(
            FILE
                + " holds a JSON "
                + root.getNodeType().name().toLowerCase(Locale.ROOT)
                + "; expected a JSON object");
      }
      String badArch = archProblem(root.get("trace_gpu_arch"));
      if (badArch != null) {
        return new Invalid(badArch);
      }
      return new Parsed(of(root));
    } catch (NoSuchFileException e) {
      return new Absent();
    } catch (JsonProcessingException e) {
      return new Invalid(describe(e));
    } catch (IOException e) {
      return new Invalid("cannot read " + FILE + ": " + e.getMessage());
    }
  }

  /** The metadata in a parsed JSON object. */
  static TraceMetadata of(JsonNode root) {
    String status = text(root, "status");
    String arch = text(root, "trace_gpu_arch");
    return new TraceMetadata(
        status == null ? null : status.toLowerCase(Locale.ROOT),
        firstText(root, "error", "reason", "error_message"),
        arch == null ? Trace.DEFAULT_GPU_ARCH : arch,
        text(root, "suggested_sim_config"),
        modelName(root),
        layers(root),
        sample(root.get("sample")));
  }

  /**
   * Why {@code trace_gpu_arch} cannot be the architecture of a trace: not a string, or not the
   * {@code sm_<major><minor>} name of a CUDA architecture ({@link #CUDA_ARCHS}); null when it is
   * one, or absent.
   */
  static String archProblem(JsonNode arch) {
    if (arch == null || arch.isNull()) {
      return null;
    }
    if (!arch.isTextual()) {
      return FILE
          + ": \"trace_gpu_arch\" must be a string such as \"sm_90\"; got "
          + describeValue(arch);
    }
    String text = arch.textValue().strip();
    if (text.isEmpty()) {
      return null;
    }
    if (!CUDA_ARCHS.contains(text)) {
      String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
      return FILE
          + ": \"trace_gpu_arch\" is \""
          + shown
          + "\", which is not a CUDA architecture; expected one of "
          + String.join(", ", CUDA_ARCHS);
    }
    return null;
  }

  private static String describeValue(JsonNode value) {
    if (value.isNumber()) {
      return "the number " + value.asText();
    }
    if (value.isBoolean()) {
      return value.asText();
    }
    return value.isArray() ? "an array" : "an object";
  }

  private static String describe(JsonProcessingException e) {
    JsonLocation location = e.getLocation();
    String where =
        location == null || location.getLineNr() < 1
            ? FILE
            : FILE + ":" + location.getLineNr() + ":" + location.getColumnNr();
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    if (message.startsWith("Trailing token")) {
      message = "it holds more than one JSON value; expected one object";
    } else if (message.contains("`") || message.contains("com.") || message.contains("java.")) {
      // The parser's remedies name its own classes and settings, not the file's problem.
      message = "it cannot be read as one JSON object";
    }
    return where + ": not valid JSON: " + message;
  }

  private static String firstText(JsonNode root, String... keys) {
    for (String key : keys) {
      String value = text(root, key);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /** A scalar's text, trimmed; null when absent, null, blank, an object or an array. */
  private static String text(JsonNode root, String key) {
    JsonNode node = root.get(key);
    if (node == null || !node.isValueNode() || node.isNull()) {
      return null;
    }
    String text = node.asText().strip();
    return text.isEmpty() ? null : text;
  }

  private static String modelName(JsonNode root) {
    String name = text(root, "model_name");
    if (name != null) {
      return name;
    }
    JsonNode model = root.get("model");
    if (model != null && model.isObject()) {
      return text(model, "name");
    }
    return text(root, "model");
  }

  private static List<String> layers(JsonNode root) {
    for (String key : List.of("traced_layers", "layers")) {
      JsonNode node = root.get(key);
      if (node == null || node.isNull()) {
        continue;
      }
      List<String> layers = new ArrayList<>();
      if (node.isArray()) {
        for (JsonNode layer : node) {
          if (layer.isValueNode() && !layer.isNull() && !layer.asText().isBlank()) {
            layers.add(layer.asText().strip());
          }
        }
      } else if (node.isValueNode() && !node.asText().isBlank()) {
        layers.add(node.asText().strip());
      }
      return layers;
    }
    return List.of();
  }

  private static boolean sample(JsonNode node) {
    if (node == null) {
      return false;
    }
    return node.isBoolean() ? node.booleanValue() : "true".equalsIgnoreCase(node.asText().strip());
  }
}
