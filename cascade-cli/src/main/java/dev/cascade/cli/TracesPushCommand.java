package dev.cascade.cli;

import dev.cascade.client.CascadeClient;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceUploads;
import dev.cascade.s3.S3Credentials;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code cascade traces push DIR --id ID}: uploads a trace folder to Cascade's S3 endpoint with the
 * AWS SDK's S3 client ({@code metadata.json} last, big files as multipart uploads, with a progress
 * bar), then waits until Cascade says the trace is {@code ready} or {@code failed}.
 */
@Command(
    name = "push",
    mixinStandardHelpOptions = true,
    description = {
      "Upload a trace folder to Cascade's S3 endpoint and wait until the trace is ready or failed.",
      "DIR is the folder the profiler wrote (metadata.json and traces/), or a bare Accel-Sim trace"
          + " folder (kernelslist.g or kernelslist and the kernel files), whose files go under"
          + " traces/ with a metadata.json saying the trace is complete.",
      "Environment: CASCADE_URL (default http://127.0.0.1:8080) and CASCADE_TOKEN, the server"
          + " that says where it takes uploads and is asked for the trace's state;"
          + " CASCADE_S3_ENDPOINT to upload elsewhere (else the server's endpoint, else"
          + " http://127.0.0.1:9000); CASCADE_S3_ACCESS_KEY and CASCADE_S3_SECRET_KEY (the pair"
          + " `cascade serve` printed).",
      "Exit code 0 when the trace is ready (or uploaded, with --no-wait), 1 when it failed or"
          + " the upload did, 2 on a usage error."
    })
final class TracesPushCommand implements Callable<Integer> {

  static final String ENDPOINT_ENV = "CASCADE_S3_ENDPOINT";
  static final String ACCESS_KEY_ENV = S3Credentials.ACCESS_KEY_ENV;
  static final String SECRET_KEY_ENV = S3Credentials.SECRET_KEY_ENV;
  static final String URL_ENV = ApiOptions.URL_ENV;
  static final String TOKEN_ENV = ApiOptions.TOKEN_ENV;
  static final String DEFAULT_ENDPOINT = "http://127.0.0.1:9000";
  static final String DEFAULT_URL = "http://127.0.0.1:8080";
  static final String PREFIX = "accelsim-traces/";
  static final String DEFAULT_BUCKET = "cascade";

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "DIR", description = "The trace folder to upload.")
  Path folder;

  @Option(
      names = "--id",
      required = true,
      paramLabel = "ID",
      description = "The trace id: 1 to 200 of A-Za-z0-9._- (the profiler's run name).")
  String id;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description =
          "The S3 endpoint; default $CASCADE_S3_ENDPOINT, else the one the server at $CASCADE_URL"
              + " names, else "
              + DEFAULT_ENDPOINT
              + ".")
  String endpoint;

  @Option(
      names = "--bucket",
      paramLabel = "BUCKET",
      description =
          "The bucket Cascade watches (default: the one the server at $CASCADE_URL names, else "
              + DEFAULT_BUCKET
              + ").")
  String bucket;

  @Option(names = "--no-wait", description = "Exit once uploaded; do not wait for Cascade.")
  boolean noWait;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "1800",
      description = "How long to wait for ready or failed (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  /** The environment variables read; tests put their own. */
  Map<String, String> environment = CliEnvironment.current();

  /** Where trace states come from, given CASCADE_URL and CASCADE_TOKEN; tests put a stand-in. */
  Function<Map<String, String>, TraceStatus.Source> statusSource =
      env ->
          new ServerTraceStatus(
              CascadeClient.connect(
                  uri(valueOr(env, URL_ENV, DEFAULT_URL), URL_ENV, DEFAULT_URL),
                  env.get(TOKEN_ENV)),
              blankToNull(env.get(TOKEN_ENV)) != null);

  /** How often the trace's state is asked for while waiting. */
  Duration pollInterval = Duration.ofSeconds(1);

  /**
   * How long an outcome of a trace that existed before must hold when Cascade was not seen working
   * on it: longer than the trace store takes to notice new files (its rescan runs every 2 s).
   */
  Duration settle = Duration.ofSeconds(5);

  /** Redraw a progress bar (true) or print a line per file (false); null: a bar on a terminal. */
  Boolean interactive;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return push(out, err);
    } catch (PushException e) {
      err.println("cascade traces push: " + e.getMessage());
      err.flush();
      return e.exitCode();
    }
  }

  private int push(PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    if (!Trace.isValidId(id)) {
      throw new PushException(
          ErrorCode.INVALID, Trace.invalidId(id).getMessage() + "; pass another --id");
    }
    if (timeoutSeconds <= 0) {
      throw new PushException(
          ErrorCode.INVALID,
          "--timeout must be a positive number of seconds; got " + timeoutSeconds);
    }
    PushPlan plan = PushPlan.of(folder);
    // No endpoint named: the server at CASCADE_URL says where it takes uploads.
    boolean endpointGiven = endpoint != null || blankToNull(environment.get(ENDPOINT_ENV)) != null;
    Optional<TraceUploads> told = endpointGiven ? Optional.empty() : uploadsTold();
    URI s3Endpoint =
        endpoint != null
            ? uri(endpoint, "--endpoint", DEFAULT_ENDPOINT)
            : told.isPresent()
                ? uri(
                    told.get().endpoint(),
                    "the S3 endpoint " + URL_ENV + " names",
                    DEFAULT_ENDPOINT)
                : uri(
                    valueOr(environment, ENDPOINT_ENV, DEFAULT_ENDPOINT),
                    ENDPOINT_ENV,
                    DEFAULT_ENDPOINT);
    if (bucket == null) {
      bucket = told.map(TraceUploads::bucket).orElse(DEFAULT_BUCKET);
    }
    String accessKey = blankToNull(environment.get(ACCESS_KEY_ENV));
    String secretKey = blankToNull(environment.get(SECRET_KEY_ENV));
    if (accessKey == null || secretKey == null) {
      throw new PushException(
          ErrorCode.INVALID,
          "set "
              + ACCESS_KEY_ENV
              + " and "
              + SECRET_KEY_ENV
              + " to the S3 key pair `cascade serve` printed (or the one it was started with)");
    }

    TraceStatus.Source status = noWait ? null : statusSource.apply(environment);
    Optional<TraceStatus> before = status == null ? Optional.empty() : ask(status);

    String prefix = PREFIX + id + "/";
    out.printf(
        Locale.ROOT,
        "Uploading %s (%s) from %s to s3://%s/%s at %s%n",
        Printed.count(plan.files().size(), "file"),
        UploadProgress.size(plan.totalBytes()),
        folder,
        bucket,
        prefix,
        s3Endpoint);
    if (plan.generatedMetadata()) {
      out.println(
          "  (no metadata.json in the folder: uploading "
              + new String(plan.files().getLast().content(), StandardCharsets.UTF_8).strip()
              + ")");
    }
    out.flush();
    UploadProgress progress =
        new UploadProgress(
            err,
            interactive != null ? interactive : RunWatcher.isTerminal(),
            plan.files().size(),
            plan.totalBytes(),
            System::nanoTime);
    long started = System.nanoTime();
    try (S3Client s3 = client(s3Endpoint, accessKey, secretKey)) {
      new TraceUploader(s3, bucket, progress).upload(prefix, plan);
    } catch (S3Exception e) {
      progress.finished();
      throw uploadRefused(e, s3Endpoint);
    } catch (SdkClientException e) {
      progress.finished();
      throw new PushException(
          ErrorCode.UNAVAILABLE,
          "cannot upload to the S3 endpoint "
              + s3Endpoint
              + ": "
              + e.getMessage()
              + "; is `cascade serve` running with its S3 endpoint? Set "
              + ENDPOINT_ENV
              + " or --endpoint to where it listens",
          e);
    }
    out.printf(
        Locale.ROOT,
        "Uploaded %s in %.1f s%n",
        UploadProgress.size(plan.totalBytes()),
        (System.nanoTime() - started) / 1e9);
    out.flush();
    if (status == null) {
      return 0;
    }
    return await(out, status, before.map(TraceStatus::updatedAt).orElse(null));
  }

  /**
   * Polls until the trace is ready or failed. A trace that was new to Cascade takes the first
   * outcome. A trace that was there before ({@code updatedBefore} not null) may still show an
   * earlier upload's outcome for a moment, so an outcome counts once Cascade has been seen working
   * on the trace again (uploading or processing), or once the outcome is newer than the one before
   * and has held for {@link #settle}.
   */
  private int await(PrintWriter out, TraceStatus.Source status, String updatedBefore)
      throws InterruptedException {
    out.println("Waiting for Cascade at " + status.describe() + " to process trace " + id + " ...");
    out.flush();
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    boolean existed = updatedBefore != null;
    boolean sawWork = false;
    String lastState = null;
    String candidate = null;
    long candidateSince = 0;
    while (true) {
      Optional<TraceStatus> now = ask(status);
      if (now.isPresent()) {
        TraceStatus trace = now.get();
        if (!trace.finished()) {
          sawWork = true;
          if (!trace.state().equals(lastState)) {
            out.println("  " + trace.state());
            out.flush();
          }
          lastState = trace.state();
        } else if (!existed || sawWork) {
          return outcome(out, trace);
        } else if (!trace.updatedAt().equals(updatedBefore)) {
          if (!trace.updatedAt().equals(candidate)) {
            candidate = trace.updatedAt();
            candidateSince = System.nanoTime();
          } else if (System.nanoTime() - candidateSince >= settle.toNanos()) {
            return outcome(out, trace);
          }
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new PushException(
            ErrorCode.CONFLICT,
            "trace "
                + id
                + " is still "
                + (lastState == null ? "not seen by Cascade" : lastState)
                + " after "
                + timeoutSeconds
                + " s; see it with `cascade traces show "
                + id
                + "`, or wait longer with --timeout");
      }
      Thread.sleep(pollInterval.toMillis()); // polling a remote server, not waiting on this JVM
    }
  }

  private int outcome(PrintWriter out, TraceStatus trace) {
    if ("ready".equals(trace.state())) {
      out.println("Trace " + id + " is ready: " + Printed.count(trace.kernelCount(), "kernel"));
      out.flush();
      return 0;
    }
    out.println(
        "Trace "
            + id
            + " failed: "
            + Objects.requireNonNullElse(trace.reason(), "no reason given"));
    out.flush();
    return 1;
  }

  private Optional<TraceStatus> ask(TraceStatus.Source status) throws InterruptedException {
    try {
      return status.find(id);
    } catch (ServerTraceStatus.TokenRefusedException e) {
      throw new PushException(ErrorCode.UNAUTHORIZED, e.getMessage(), e);
    } catch (ServerTraceStatus.UnreachableException e) {
      throw new PushException(
          ErrorCode.UNAVAILABLE, e.getMessage() + " to where it listens, or pass --no-wait", e);
    } catch (IOException e) {
      throw new PushException(
          ErrorCode.UNAVAILABLE,
          "cannot ask Cascade at "
              + status.describe()
              + " about trace "
              + id
              + ": "
              + e.getMessage()
              + "; set "
              + URL_ENV
              + " to where `cascade serve` listens, or pass --no-wait",
          e);
    }
  }

  private PushException uploadRefused(S3Exception e, URI s3Endpoint) {
    String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    if (e.statusCode() == 403) {
      return new PushException(
          ErrorCode.FORBIDDEN,
          "the S3 endpoint "
              + s3Endpoint
              + " refused the key pair ("
              + code
              + "); set "
              + ACCESS_KEY_ENV
              + " and "
              + SECRET_KEY_ENV
              + " to the pair `cascade serve` printed",
          e);
    }
    if ("NoSuchBucket".equals(code)) {
      return new PushException(
          ErrorCode.NOT_FOUND,
          "the S3 endpoint "
              + s3Endpoint
              + " has no bucket \""
              + bucket
              + "\"; Cascade watches bucket \"cascade\": drop --bucket or create it",
          e);
    }
    return new PushException(
        ErrorCode.INTERNAL,
        "the S3 endpoint " + s3Endpoint + " refused the upload: " + e.getMessage(),
        e);
  }

  /**
   * Where the server at {@code CASCADE_URL} takes uploads, when that is set: a server that cannot
   * say (an older one, or one without S3) leaves the defaults.
   */
  private Optional<TraceUploads> uploadsTold() {
    String url = blankToNull(environment.get(URL_ENV));
    if (url == null) {
      return Optional.empty();
    }
    try (CascadeClient client =
        CascadeClient.connect(uri(url, URL_ENV, DEFAULT_URL), environment.get(TOKEN_ENV))) {
      return Optional.of(client.uploads());
    } catch (CascadeException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * The SDK client: path-style requests (an endpoint at an address has no bucket subdomains), and
   * checksums only where S3 requires them, so S3 servers that predate the SDK's default checksums
   * (s3proxy 2.x, older rclone) accept the upload too; SigV4 signing still covers every byte.
   */
  private static S3Client client(URI endpoint, String accessKey, String secretKey) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static String valueOr(Map<String, String> environment, String name, String fallback) {
    String value = blankToNull(environment.get(name));
    return value != null ? value : fallback;
  }

  private static URI uri(String value, String what, String example) {
    try {
      URI uri = new URI(value.strip());
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new URISyntaxException(value, "not an http:// or https:// URL with a host");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new PushException(
          ErrorCode.INVALID,
          what + " \"" + value + "\" is not an http:// or https:// URL, such as " + example);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
