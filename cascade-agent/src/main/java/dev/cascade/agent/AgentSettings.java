package dev.cascade.agent;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How the sim agent reports. Immutable; start from {@link #of} or {@link #builder}, and change what
 * you need with {@link #with}.
 *
 * @param mainUrl the app ({@link SimContract#MAIN_URL})
 * @param simId the sim ({@link SimContract#SIM_ID})
 * @param token the sim's bearer token (the first line of its standard input, {@link
 *     SimContract#tokenInput})
 * @param spool where chunks are kept until the app has them all
 * @param keepSpool keep the spool folder after a complete report (it is always kept otherwise)
 * @param chunkBytes the largest chunk (256 KiB)
 * @param chunkAge the longest output waits before it is sent (1 s)
 * @param heartbeatInterval between heartbeats (2 s)
 * @param backoffInitial the first wait after a failed request (250 ms)
 * @param backoffMax the longest wait between retries (10 s)
 * @param giveUpAfter with no answer from the app for this long, stop the simulator and exit 4 (10
 *     min, as long as the app waits before it fails a silent sim)
 * @param goneAfter with nothing listening at the app's address (connections refused) for this long,
 *     stop the simulator and exit 4 (2 min): the app is gone, not slow. A restarted {@code cascade
 *     serve} listens again within seconds; an app that closed, such as a test's, is not retried for
 *     the full {@code giveUpAfter}
 * @param killGrace between SIGTERM and SIGKILL to the simulator's group (3 s)
 * @param finalReportTimeout after a cancel or SIGTERM, how long the last chunks and heartbeat may
 *     take (1.5 s; with the kill grace it fits in the 5 s the local launcher allows)
 * @param requestTimeout one HTTP request's limit (30 s)
 */
record AgentSettings(
    URI mainUrl,
    String simId,
    String token,
    Path spool,
    boolean keepSpool,
    int chunkBytes,
    Duration chunkAge,
    Duration heartbeatInterval,
    Duration backoffInitial,
    Duration backoffMax,
    Duration giveUpAfter,
    Duration goneAfter,
    Duration killGrace,
    Duration finalReportTimeout,
    Duration requestTimeout) {

  static final int DEFAULT_CHUNK_BYTES = 256 * 1024;
  static final Duration DEFAULT_GONE_AFTER = Duration.ofMinutes(2);

  public AgentSettings {
    Objects.requireNonNull(mainUrl, "mainUrl");
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(spool, "spool");
    String scheme = mainUrl.getScheme();
    if (scheme == null
        || !(scheme.equals("http") || scheme.equals("https"))
        || mainUrl.getHost() == null) {
      throw new IllegalArgumentException(
          SimContract.MAIN_URL
              + " must be an http(s) URL such as http://127.0.0.1:8080; got '"
              + mainUrl
              + "'");
    }
    if (!isSimId(simId)) {
      throw new IllegalArgumentException(
          SimContract.SIM_ID + " must be a sim id such as s_01J...; got '" + simId + "'");
    }
    if (token.isBlank() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException(
          "the sim's token (the first line of standard input) must be printable ASCII without"
              + " spaces; "
              + (token.isBlank() ? "got none" : "got one with a space or a control character"));
    }
    if (chunkBytes < 1 || chunkBytes > 8 * 1024 * 1024) {
      throw new IllegalArgumentException(
          "the chunk size must be 1 byte to 8 MiB (the app's limit); got " + chunkBytes);
    }
    requirePositive("chunk age", chunkAge);
    requirePositive("heartbeat interval", heartbeatInterval);
    requirePositive("first backoff", backoffInitial);
    requirePositive("largest backoff", backoffMax);
    requirePositive("give-up time", giveUpAfter);
    requirePositive("gone time", goneAfter);
    requirePositive("request timeout", requestTimeout);
    Objects.requireNonNull(killGrace, "killGrace");
    Objects.requireNonNull(finalReportTimeout, "finalReportTimeout");
    if (killGrace.isNegative() || finalReportTimeout.isNegative()) {
      throw new IllegalArgumentException("the kill grace and final report time cannot be negative");
    }
    if (backoffMax.compareTo(backoffInitial) < 0) {
      throw new IllegalArgumentException(
          "the largest backoff (" + backoffMax + ") is below the first (" + backoffInitial + ")");
    }
  }

  /** Settings with the defaults above. */
  static AgentSettings of(URI mainUrl, String simId, String token, Path spool) {
    return builder(mainUrl, simId, token, spool).build();
  }

  /** A builder holding the defaults above, to change some of them. */
  static Builder builder(URI mainUrl, String simId, String token, Path spool) {
    Builder builder = new Builder();
    builder.mainUrl = mainUrl;
    builder.simId = simId;
    builder.token = token;
    builder.spool = spool;
    return builder;
  }

  /** A copy of these settings with {@code change} applied, checked like any settings. */
  AgentSettings with(Consumer<Builder> change) {
    Builder copy = new Builder(this);
    change.accept(copy);
    return copy.build();
  }

  /**
   * The settings while they are made or changed: the one place that lists every field, with its
   * default. {@link #build} checks them.
   */
  static final class Builder {
    URI mainUrl;
    String simId;
    String token;
    Path spool;
    boolean keepSpool = false;
    int chunkBytes = DEFAULT_CHUNK_BYTES;
    Duration chunkAge = Duration.ofSeconds(1);
    Duration heartbeatInterval = Duration.ofSeconds(2);
    Duration backoffInitial = Duration.ofMillis(250);
    Duration backoffMax = Duration.ofSeconds(10);
    Duration giveUpAfter = Duration.ofMinutes(10);
    Duration goneAfter = DEFAULT_GONE_AFTER;
    Duration killGrace = Duration.ofSeconds(3);
    Duration finalReportTimeout = Duration.ofMillis(1500);
    Duration requestTimeout = Duration.ofSeconds(30);

    private Builder() {}

    private Builder(AgentSettings s) {
      mainUrl = s.mainUrl;
      simId = s.simId;
      token = s.token;
      spool = s.spool;
      keepSpool = s.keepSpool;
      chunkBytes = s.chunkBytes;
      chunkAge = s.chunkAge;
      heartbeatInterval = s.heartbeatInterval;
      backoffInitial = s.backoffInitial;
      backoffMax = s.backoffMax;
      giveUpAfter = s.giveUpAfter;
      goneAfter = s.goneAfter;
      killGrace = s.killGrace;
      finalReportTimeout = s.finalReportTimeout;
      requestTimeout = s.requestTimeout;
    }

    AgentSettings build() {
      return new AgentSettings(
          mainUrl,
          simId,
          token,
          spool,
          keepSpool,
          chunkBytes,
          chunkAge,
          heartbeatInterval,
          backoffInitial,
          backoffMax,
          giveUpAfter,
          goneAfter,
          killGrace,
          finalReportTimeout,
          requestTimeout);
    }
  }

  /** 1 to 200 of {@code A-Z a-z 0-9 . _ ~ -}, checked without a regex (start-up time). */
  private static boolean isSimId(String id) {
    if (id.isEmpty() || id.length() > 200) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '~'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static void requirePositive(String what, Duration value) {
    Objects.requireNonNull(value, what);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("the " + what + " must be positive; got " + value);
    }
  }
}
