package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.LogCollection;
import dev.cascade.core.Role;
import dev.cascade.core.internal.run.LogRetention;
import dev.cascade.core.json.StorageJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;

/**
 * {@code POST /api/gc}: drops the logs (never the results) of finished runs older than {@code
 * older_than}, and the kernel-window folders of finished sims; {@code cascade gc} calls it.
 */
final class StorageRoutes {

  private final LogRetention storage;
  private final Auth auth;
  private final int maxJsonBytes;

  StorageRoutes(LogRetention storage, Auth auth, int maxJsonBytes) {
    this.storage = storage;
    this.auth = auth;
    this.maxJsonBytes = maxJsonBytes;
  }

  void register(RoutesConfig routes) {
    routes.post("/api/gc", auth.needs(Role.ADMIN, "dropping old logs", this::collect));
  }

  private void collect(Context ctx) {
    JsonBody body = JsonBody.read(ctx, maxJsonBytes);
    String olderThan = body.requiredString("older_than");
    Duration age;
    try {
      age = LogCollection.parseAge(olderThan);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, "older_than " + e.getMessage(), "older_than");
    }
    Json.send(ctx, 200, StorageJson.writeCollection(storage.collect(age)));
  }
}
