package dev.cascade.bench;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;

/**
 * The ingest baseline: a bare Javalin 7 server on virtual threads, on 127.0.0.1, whose one POST
 * endpoint reads the body and answers a tiny JSON, with the same Javalin settings as Cascade's
 * server and in the same JVM.
 */
final class BaselineServer implements AutoCloseable {

  private static final String ANSWER = "{\"cancel\":false}";

  private final Javalin app;

  private BaselineServer(Javalin app) {
    this.app = app;
  }

  static BaselineServer start() {
    Javalin app =
        Javalin.create(
            config -> {
              config.startup.showJavalinBanner = false;
              config.startup.showOldJavalinVersionWarning = false;
              config.concurrency.useVirtualThreads = true;
              config.http.generateEtags = false;
              config.http.compressionStrategy = CompressionStrategy.NONE;
              config.jetty.host = "127.0.0.1";
              config.jetty.port = 0;
              config.routes.post(
                  LoadTarget.BASELINE_PATH,
                  ctx -> {
                    ctx.bodyAsBytes();
                    ctx.contentType("application/json").result(ANSWER);
                  });
            });
    app.start();
    return new BaselineServer(app);
  }

  String url() {
    return "http://127.0.0.1:" + app.port();
  }

  @Override
  public void close() {
    app.stop();
  }
}
