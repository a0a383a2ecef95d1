package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.TraceUploads;
import dev.cascade.core.json.UploadsJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * {@code GET /api/uploads}: where this Cascade takes trace uploads, so a client that knows only the
 * server's URL ({@code cascade traces push} with {@code CASCADE_URL}) uploads to the right place.
 */
final class UploadRoutes {

  private final TraceUploads uploads;
  private final Auth auth;

  /** {@code uploads} null: this server runs no upload endpoint, and says so with 404. */
  UploadRoutes(TraceUploads uploads, Auth auth) {
    this.uploads = uploads;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/uploads", auth.viewer(this::get));
  }

  private void get(Context ctx) {
    if (uploads == null) {
      throw new CascadeException(
          ErrorCode.NOT_FOUND,
          "this Cascade takes no S3 uploads (it was started without its S3 endpoint, such as"
              + " cascade serve --no-s3); upload to the S3 endpoint it watches, named with"
              + " CASCADE_S3_ENDPOINT");
    }
    Json.send(ctx, 200, UploadsJson.write(uploads));
  }
}
