package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Runs;
import dev.cascade.core.internal.trace.TraceManifest;
import dev.cascade.core.internal.trace.TraceStore;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A sim's own trace, for sims on nodes that do not share the app's disk ({@code fetch} mode): its
 * manifest (files, sizes, SHA-256, content hash) and each file, behind the sim's token.
 */
final class TraceFetchRoutes {

  private final Runs runs;
  private final TraceStore traces;
  private final Auth auth;

  TraceFetchRoutes(Runs runs, TraceStore traces, Auth auth) {
    this.runs = runs;
    this.traces = traces;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/sims/{id}/trace", auth.sim(this::manifest));
    routes.get("/api/sims/{id}/trace/file", auth.sim(this::file));
  }

  private void manifest(Context ctx) {
    TraceManifest manifest = manifestOf(ctx.pathParam("id"));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("trace_id", manifest.traceId());
    json.put("content_hash", manifest.contentHash());
    json.put(
        "files",
        manifest.files().stream()
            .map(
                f ->
                    Map.<String, Object>of(
                        "path", f.path(), "size", f.size(), "sha256", f.sha256()))
            .toList());
    Json.send(ctx, 200, json);
  }

  private void file(Context ctx) {
    String simId = ctx.pathParam("id");
    String path = ctx.queryParam("path");
    if (path == null || path.isBlank()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "give the trace file's path, as its manifest lists it: ?path=",
          "path");
    }
    TraceManifest manifest = manifestOf(simId);
    TraceManifest.TraceFile file =
        manifest
            .file(path)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "trace " + manifest.traceId() + " has no file \"" + path + "\"",
                        "path"));
    Path on = traces.folderOf(manifest.traceId()).resolve(file.path());
    try {
      ctx.contentType("application/octet-stream");
      ctx.header("Content-Length", Long.toString(Files.size(on)));
      ctx.result(Files.newInputStream(on));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + on, e);
    }
  }

  private TraceManifest manifestOf(String simId) {
    String traceId = runs.get(runs.sim(simId).runId()).traceId();
    return TraceManifest.of(traceId, traces.folderOf(traceId));
  }
}
