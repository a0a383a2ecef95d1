package dev.cascade.s3;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.ListenAddress;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cascade's own S3-compatible endpoint (DESIGN.md section 10): any S3 client uploads a trace with
 * no other server to run. Objects are written as plain files, {@code <dataDir>/s3/<bucket>/<key>},
 * which is where the trace store watches for uploads: a trace {@code T} is uploaded to bucket
 * {@value #BUCKET} under {@code accelsim-traces/T/}.
 *
 * <p>It is <a href="https://github.com/gaul/s3proxy">s3proxy</a> over its file system store. An
 * object is written to {@code <key>-<uuid>} beside its final name and renamed into place when
 * complete; multipart uploads keep their parts in {@code .mpus-<upload id>-<key>-<n>} (and a stub
 * {@code ...-stub}, and a {@code .s3proxy-mpu-stub-<upload id>}) at the bucket root until they
 * complete. The trace store treats all of these as an upload at work, never as trace files. Object
 * metadata goes into extended attributes where the file system has them. Requests must be signed
 * with the {@link S3Credentials} (AWS Signature V4, or V2; unsigned ones are always refused, see
 * {@link PrivateBlobStore}); clients use path-style addressing. A key the file system cannot hold
 * (a part over 170 bytes; a {@code .}, {@code ..} or empty part; a file where a folder of other
 * keys is) is refused with a 400 S3 error, never a 500 ({@link StorableKeys}); so are a body that
 * is not the SHA-256 its request says, an ACL without an owner and the keys s3proxy keeps for
 * itself ({@link RequestChecks}, in front of s3proxy's handler). What abandoned uploads leave is
 * removed after a day unchanged, at start and hourly ({@link StaleUploads}).
 *
 * <pre>{@code
 * try (EmbeddedS3 s3 = EmbeddedS3.builder()
 *         .dataDir(dataDir)
 *         .credentials(S3Credentials.fromEnvironment(System.getenv()))
 *         .build()
 *         .start()) {
 *   System.out.println("S3 endpoint " + s3.endpoint() + ", bucket " + s3.bucket());
 *   ...
 * }
 * }</pre>
 */
public final class EmbeddedS3 implements AutoCloseable {

  /** The bucket created at start, which Cascade watches for traces. */
  public static final String BUCKET = "cascade";

  public static final String DEFAULT_BIND = "127.0.0.1";
  public static final int DEFAULT_PORT = 9000;

  /** How long an abandoned upload's files stay before they are removed ({@link StaleUploads}). */
  public static final Duration DEFAULT_STALE_UPLOAD_AGE = Duration.ofDays(1);

  private static final Duration SWEEP_INTERVAL = Duration.ofHours(1);

  /** How long {@link #close()} lets requests in flight finish. */
  public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(EmbeddedS3.class);

  private final Path dataDir;
  private final ListenAddress bind;
  private final int port;
  private final S3Credentials credentials;
  private final Duration stopTimeout;
  private final Duration staleUploadAge;
  private final Object lock = new Object();
  // Guarded by lock.
  private S3Proxy proxy;
  private ScheduledExecutorService sweeper;
  private URI endpoint;
  private boolean started;
  private boolean closed;

  private EmbeddedS3(Builder builder) {
    this.dataDir = builder.dataDir.toAbsolutePath().normalize();
    this.bind = builder.bind;
    this.port = builder.port;
    this.credentials = builder.credentials != null ? builder.credentials : S3Credentials.generate();
    this.stopTimeout = builder.stopTimeout;
    this.staleUploadAge = builder.staleUploadAge;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates {@code <dataDir>/s3/cascade} when absent and starts listening; returns this.
   *
   * @throws CascadeException {@code UNAVAILABLE} when the port is taken or the folder cannot be
   *     created
   * @throws IllegalStateException when already started or closed
   */
  public EmbeddedS3 start() {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("this EmbeddedS3 is closed; build a new one");
      }
      if (started) {
        throw new IllegalStateException("this EmbeddedS3 was already started");
      }
      started = true;
      QuietLogging.apply();
      Path root = storageRoot();
      try {
        Files.createDirectories(root.resolve(BUCKET));
      } catch (IOException e) {
        throw new CascadeException(
            ErrorCode.UNAVAILABLE,
            "cannot create the S3 bucket folder \""
                + root.resolve(BUCKET)
                + "\": "
                + e
                + "; check CASCADE_DATA_DIR and its permissions",
            null,
            e);
      }
      S3Proxy server =
          S3Proxy.builder()
              .blobStore(
                  new StorableKeys(
                      new PrivateBlobStore(new FilesystemNio2BlobStore(root.toString())), root))
              .endpoint(URI.create("http://" + bind.literalInUrl() + ":" + port))
              .awsAuthentication(
                  AuthenticationType.AWS_V2_OR_V4, credentials.accessKey(), credentials.secretKey())
              .stopTimeout(stopTimeout.toMillis())
              .build();
      RequestChecks.installIn(server);
      try {
        server.start();
      } catch (Exception e) {
        stopQuietly(server);
        throw startFailure(e);
      }
      proxy = server;
      sweeper = startSweeping(root.resolve(BUCKET));
      endpoint = URI.create("http://" + bind.clientHost() + ":" + server.getPort());
      log.info(
          "S3 endpoint at {} (listening on {}), bucket \"{}\", objects in {}",
          endpoint,
          bind,
          BUCKET,
          root);
      return this;
    }
  }

  /**
   * The URL clients on this machine use, such as {@code http://127.0.0.1:9000}: the bind address,
   * or loopback when it listens on every address.
   *
   * @throws IllegalStateException before {@link #start()}
   */
  public URI endpoint() {
    synchronized (lock) {
      requireRunning();
      return endpoint;
    }
  }

  /** The port listened on; the one picked when built with port 0. */
  public int port() {
    synchronized (lock) {
      requireRunning();
      return proxy.getPort();
    }
  }

  /** The address listened on ({@code 127.0.0.1} by default), in its usual form. */
  public String bind() {
    return bind.literal();
  }

  /** {@value #BUCKET}: the bucket created at start. */
  public String bucket() {
    return BUCKET;
  }

  /** The key pair requests must be signed with; print it when {@link S3Credentials#generated()}. */
  public S3Credentials credentials() {
    return credentials;
  }

  /** {@code <dataDir>/s3}: each bucket is a folder in it, each object a file. */
  public Path storageRoot() {
    return dataDir.resolve("s3");
  }

  /** Stops listening, letting requests in flight finish for the stop timeout. Idempotent. */
  @Override
  public void close() {
    S3Proxy server;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      server = proxy;
      proxy = null;
      if (sweeper != null) {
        sweeper.shutdownNow();
        sweeper = null;
      }
    }
    if (server != null) {
      stopQuietly(server);
      log.info("S3 endpoint stopped");
    }
  }

  /**
   * Removes abandoned uploads older than the stale age now, then every hour, on a daemon thread.
   */
  private ScheduledExecutorService startSweeping(Path bucket) {
    StaleUploads.sweep(bucket, Instant.now().minus(staleUploadAge));
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("cascade-s3-sweeper").factory());
    scheduler.scheduleWithFixedDelay(
        () -> StaleUploads.sweep(bucket, Instant.now().minus(staleUploadAge)),
        SWEEP_INTERVAL.toMillis(),
        SWEEP_INTERVAL.toMillis(),
        TimeUnit.MILLISECONDS);
    return scheduler;
  }

  private void requireRunning() {
    if (proxy == null) {
      throw new IllegalStateException(
          closed ? "this EmbeddedS3 is closed" : "call start() before asking for the endpoint");
    }
  }

  private CascadeException startFailure(Exception e) {
    String where = bind + ":" + port;
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException) {
        return new CascadeException(
            ErrorCode.UNAVAILABLE,
            "cannot start the S3 endpoint on "
                + where
                + ": "
                + cause.getMessage()
                + "; stop what uses port "
                + port
                + ", pick another with --s3-port, or run without the endpoint with --no-s3",
            "s3_port",
            e);
      }
    }
    return new CascadeException(
        ErrorCode.UNAVAILABLE, "cannot start the S3 endpoint on " + where + ": " + e, "s3_port", e);
  }

  private static void stopQuietly(S3Proxy server) {
    try {
      server.stop();
    } catch (Exception e) {
      log.warn("stopping the S3 endpoint failed: {}", e.toString());
    }
  }

  /** Builds an {@link EmbeddedS3}; only {@code dataDir} is required. */
  public static final class Builder {
    private Path dataDir;
    private ListenAddress bind = ListenAddress.parse(DEFAULT_BIND);
    private int port = DEFAULT_PORT;
    private S3Credentials credentials;
    private Duration stopTimeout = DEFAULT_STOP_TIMEOUT;
    private Duration staleUploadAge = DEFAULT_STALE_UPLOAD_AGE;

    private Builder() {}

    /**
     * How long the files of an abandoned upload (a multipart upload never completed, an object
     * never renamed into place) may go unchanged before they are removed; a day by default. Checked
     * at start and every hour.
     */
    public Builder staleUploadAge(Duration staleUploadAge) {
      Objects.requireNonNull(staleUploadAge, "staleUploadAge");
      if (staleUploadAge.isNegative() || staleUploadAge.isZero()) {
        throw new IllegalArgumentException(
            "staleUploadAge must be positive; got " + staleUploadAge);
      }
      this.staleUploadAge = staleUploadAge;
      return this;
    }

    /** {@code $CASCADE_DATA_DIR}: objects go to {@code <dataDir>/s3/<bucket>/<key>}. */
    public Builder dataDir(Path dataDir) {
      this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
      return this;
    }

    /**
     * The address to listen on; {@code 127.0.0.1} by default. Parsed as the API server parses its
     * own ({@link ListenAddress#parse}), so {@code 127.1} or {@code ::ffff:127.0.0.1} work alike.
     *
     * @throws CascadeException {@code INVALID} when it is no address
     */
    public Builder bind(String bind) {
      this.bind = ListenAddress.parse(Objects.requireNonNull(bind, "bind"));
      return this;
    }

    /** The TCP port; 9000 by default, 0 for a free one ({@link EmbeddedS3#port()} tells which). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException(
            "port must be 0 to 65535 (0 picks a free one); got " + port);
      }
      this.port = port;
      return this;
    }

    /** The key pair to accept; a generated one when not set. */
    public Builder credentials(S3Credentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** Shorthand for {@code credentials(new S3Credentials(accessKey, secretKey, false))}. */
    public Builder credentials(String accessKey, String secretKey) {
      return credentials(new S3Credentials(accessKey, secretKey, false));
    }

    /**
     * The key pair from {@code CASCADE_S3_ACCESS_KEY} / {@code CASCADE_S3_SECRET_KEY} in {@code
     * environment}, generated when neither is set; see {@link S3Credentials#fromEnvironment}.
     */
    public Builder credentialsFrom(Map<String, String> environment) {
      return credentials(S3Credentials.fromEnvironment(environment));
    }

    /** How long {@link EmbeddedS3#close()} lets requests in flight finish; 5 s by default. */
    public Builder stopTimeout(Duration stopTimeout) {
      Objects.requireNonNull(stopTimeout, "stopTimeout");
      if (stopTimeout.isNegative()) {
        throw new IllegalArgumentException("stopTimeout cannot be negative; got " + stopTimeout);
      }
      this.stopTimeout = stopTimeout;
      return this;
    }

    /** The endpoint, not started yet: call {@link EmbeddedS3#start()}. */
    public EmbeddedS3 build() {
      if (dataDir == null) {
        throw new IllegalStateException("EmbeddedS3.builder(): dataDir is required");
      }
      return new EmbeddedS3(this);
    }
  }
}
