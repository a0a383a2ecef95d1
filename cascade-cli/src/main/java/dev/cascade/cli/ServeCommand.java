package dev.cascade.cli;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.CascadeServer;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.SimCommands;
import dev.cascade.core.TraceUploads;
import dev.cascade.s3.EmbeddedS3;
import dev.cascade.s3.S3Credentials;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cascade serve}: the app. The HTTP API and web UI, the embedded S3 endpoint, the trace
 * store and the run manager, until SIGTERM or Ctrl-C. Sims are left running on the way out; they
 * report again after the next start.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run Cascade: the web UI and HTTP API, the embedded S3 endpoint for uploads, and the sims.",
      "An empty data dir gets a runnable demo trace and a sample trace."
    })
final class ServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** The environment settings come from; tests replace it. */
  Map<String, String> environment = CliEnvironment.current();

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "HTTP port (default ${DEFAULT-VALUE}).")
  int port = ServerSettings.DEFAULT_PORT;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      description =
          "Address to listen on (default ${DEFAULT-VALUE}); any other than loopback needs"
              + " a token (--token-file).")
  String bind = ServerSettings.DEFAULT_BIND;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "A file only you can read (chmod 600) holding the API token clients must present."
              + " Default: $CASCADE_TOKEN_FILE, else DATA_DIR/api-token when it exists; ./cascade"
              + " serve passes $CASCADE_TOKEN on a descriptor, out of the server's environment.")
  Path tokenFile;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where Cascade keeps everything (default $CASCADE_DATA_DIR, else ./data).")
  Path dataDir;

  @Option(
      names = "--sims",
      paramLabel = "LAUNCHER",
      description = "Where sims run: local, sail or slurm (default ${DEFAULT-VALUE}).")
  String sims = "local";

  @Option(
      names = "--local-slots",
      paramLabel = "N",
      description =
          "How many sims the local launcher runs at once; the others wait their turn (default"
              + " $CASCADE_LOCAL_SLOTS, else one per core).")
  Integer localSlots;

  @Option(
      names = "--public-url",
      paramLabel = "URL",
      description =
          "The URL sims reach the app at (CASCADE_MAIN_URL), e.g. the login node's routable"
              + " address with --bind; default: the server's own URL.")
  String publicUrl;

  @Option(
      names = "--sim-user",
      paramLabel = "USER",
      description =
          "Run local sims as this OS user (runuser when serve runs as root, else sudo -n -u"
              + " USER), so a sim cannot read the server or other users' sims; see"
              + " docs/operations.md, Threat model.")
  String simUser;

  @Mixin SlurmOptions slurm = new SlurmOptions();

  @Option(names = "--no-s3", description = "Do not start the embedded S3 endpoint.")
  boolean noS3;

  @Option(
      names = "--s3-port",
      paramLabel = "PORT",
      description = "Port of the embedded S3 endpoint (default ${DEFAULT-VALUE}).")
  int s3Port = EmbeddedS3.DEFAULT_PORT;

  /** Tests count it down to stop the server; in use, SIGTERM or Ctrl-C does. */
  final CountDownLatch stop = new CountDownLatch(1);

  /** Called once the app listens; tests read where. */
  volatile CascadeServer server;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Map<String, String> environment = this.environment;
    Path data = AppSetup.dataDir(dataDir, environment);
    List<AutoCloseable> running = new ArrayList<>();
    Thread shutdown = new Thread(() -> closeAll(running), "cascade-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdown);
    try {
      SimCommands.Choice simCommand = CascadeSettings.simCommandFromEnvironment(environment, data);
      CascadeSettings.ServerToken token = CascadeSettings.serverToken(environment, tokenFile, data);
      if (token.inEnvironment()) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(
            "cascade: warning: the API token comes from CASCADE_TOKEN in this server's own"
                + " environment, which every process of this user (a sim among them) can read in"
                + " /proc; start it with ./cascade serve, which passes it on a descriptor, or use"
                + " --token-file");
        err.flush();
      }
      // S3 first: the API tells clients where it listens (GET /api/uploads).
      EmbeddedS3 s3 = null;
      if (!noS3) {
        s3 =
            EmbeddedS3.builder()
                .dataDir(data)
                .bind(bind)
                .port(s3Port)
                .credentials(
                    S3Credentials.fromEnvironmentOrFile(environment, data.resolve("s3-keys")))
                .build()
                .start();
        running.add(0, s3);
      }
      ServerSettings serverSettings =
          ServerSettings.defaults()
              .withBind(bind)
              .withPort(port)
              .withToken(token.token())
              .withUploads(
                  s3 == null
                      ? null
                      : new TraceUploads(
                          s3.endpoint().toString(), s3.bucket(), TracesPushCommand.PREFIX));
      if (simUser != null && !sims.equals(LocalLauncher.NAME)) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "--sim-user runs local sims only; got --sims " + sims + "; leave --sim-user out",
            "sim-user");
      }
      CascadeSettings.Builder builder =
          slurm.apply(
              AppSetup.localSlots(
                  AppSetup.cascade(environment, data, sims, simCommand, serverSettings),
                  localSlots),
              sims,
              environment);
      if (simUser != null) {
        builder.launcher(new LocalLauncher().withSimUser(simUser));
      }
      Cascade cascade = (publicUrl != null ? builder.mainUrl(publicUrl) : builder).build();
      List<String> seeded = AppSetup.seedIfNew(data);
      cascade.start();
      running.add(0, cascade);
      CascadeServer started = cascade.server().orElseThrow();
      server = started;
      out.println("Cascade is running: open " + started.url() + "/");
      out.println("  data       " + data);
      out.println("  sims       " + sims + " launcher, " + simCommand.description());
      if (simUser != null) {
        out.println("  sim user   " + simUser + " (sims run as this OS user)");
      }
      cascade
          .settings()
          .launcher()
          .slots()
          .ifPresent(
              n -> out.println("  slots      " + n + " sims at once; the others wait in turn"));
      out.println("  configs    " + cascade.configs().source());
      if (token.token() != null) {
        out.println("  token      required, from " + token.source());
      }
      if (!seeded.isEmpty()) {
        out.println("  seeded     " + String.join(", ", seeded) + " (a new data dir)");
      }
      if (s3 != null) {
        out.println(
            "  s3         "
                + s3.endpoint()
                + " bucket "
                + s3.bucket()
                + ", traces under accelsim-traces/<trace id>/");
        if (s3.credentials().generated()) {
          out.println(
              "             access key "
                  + s3.credentials().accessKey()
                  + ", secret key "
                  + s3.credentials().secretKey()
                  + " (generated and kept in "
                  + data.resolve("s3-keys")
                  + "; CASCADE_S3_ACCESS_KEY and CASCADE_S3_SECRET_KEY override it)");
        } else if (environment.get(S3Credentials.ACCESS_KEY_ENV) == null) {
          out.println("             key pair in " + data.resolve("s3-keys"));
        }
      }
      out.println("Stop with Ctrl-C; running sims keep going and report again after a restart.");
      out.flush();
      stop.await();
      return 0;
    } finally {
      closeAll(running);
      try {
        Runtime.getRuntime().removeShutdownHook(shutdown);
      } catch (IllegalStateException shuttingDown) {
        // The hook is already closing everything.
      }
    }
  }

  private static void closeAll(List<AutoCloseable> running) {
    synchronized (running) {
      for (AutoCloseable closeable : running) {
        try {
          closeable.close();
        } catch (Exception e) {
          System.err.println("cascade: closing " + closeable + " failed: " + e.getMessage());
        }
      }
      running.clear();
    }
  }
}
