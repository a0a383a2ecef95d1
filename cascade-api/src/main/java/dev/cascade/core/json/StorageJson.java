package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.LogCollection;
import dev.cascade.core.RunStorage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What runs keep on disk on the wire: a run's {@code storage} ({@link RunStorage}) and the answer
 * of {@code POST /api/gc} ({@link LogCollection}). Sizes are bytes.
 */
public final class StorageJson {

  private StorageJson() {}

  /**
   * {@code {"log_bytes", "log_stored_bytes", "stats_stored_bytes", "stored_bytes",
   * "sims_with_logs_dropped"}}.
   */
  public static Map<String, Object> writeRunStorage(RunStorage storage) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("log_bytes", storage.logBytes());
    fields.put("log_stored_bytes", storage.logStoredBytes());
    fields.put("stats_stored_bytes", storage.statsStoredBytes());
    fields.put("stored_bytes", storage.storedBytes());
    fields.put("sims_with_logs_dropped", storage.simsWithLogsDropped());
    return fields;
  }

  /** A run's storage as {@link #writeRunStorage} writes it. */
  public static RunStorage readRunStorage(JsonNode node) {
    Fields fields = Fields.of(node, "a run's storage");
    return new RunStorage(
        fields.whole("log_bytes"),
        fields.whole("log_stored_bytes"),
        fields.whole("stats_stored_bytes"),
        fields.integer("sims_with_logs_dropped"));
  }

  /**
   * {@code {"before", "runs", "sims", "log_bytes", "log_stored_bytes", "folders"}}: what a
   * collection of old logs dropped.
   */
  public static Map<String, Object> writeCollection(LogCollection collection) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("before", collection.before().toString());
    fields.put("runs", collection.runs());
    fields.put("sims", collection.sims());
    fields.put("log_bytes", collection.logBytes());
    fields.put("log_stored_bytes", collection.logStoredBytes());
    fields.put("folders", collection.folders());
    return fields;
  }

  /** A collection as {@link #writeCollection} writes it. */
  public static LogCollection readCollection(JsonNode node) {
    Fields fields = Fields.of(node, "a log collection");
    return new LogCollection(
        fields.time("before"),
        fields.integer("runs"),
        fields.integer("sims"),
        fields.whole("log_bytes"),
        fields.whole("log_stored_bytes"),
        fields.integer("folders"));
  }
}
