package dev.cascade.agent;

import dev.cascade.agent.emulator.EmulatorOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Many emulated sims in one JVM, for load tests of the app ({@code cascade emulate --fleet N}, like
 * Clockwork's dummy worker, DESIGN.md section 9): each member runs the emulator and the agent's
 * side of the contract (chunks in order with retries and backoff, heartbeats, the final report with
 * missing chunks re-sent), and all of them share one event loop: a single scheduler thread, with
 * {@code java.net.http}'s asynchronous client delivering its answers on that same thread.
 *
 * <p>The fleet creates nothing on the app: it is given each member's sim id and token, from a file
 * ({@link #readMembers}) or by a benchmark that created the sims itself. Unlike the single agent it
 * keeps no spool: a chunk is held in memory until the app accepts it and then dropped, so a final
 * heartbeat that asks again for an accepted chunk is counted as a lost chunk (the app lost what it
 * had acknowledged) rather than re-sent.
 */
public final class EmulatorFleet {

  /**
   * One emulated sim.
   *
   * @param simId the sim's id on the app
   * @param token its token
   * @param replica its replica number (it picks the emulator's jitter)
   */
  public record Member(String simId, String token, int replica) {
    public Member {
      Objects.requireNonNull(simId, "simId");
      Objects.requireNonNull(token, "token");
      if (replica < 0) {
        throw new IllegalArgumentException("replica must be 0 or more; got " + replica);
      }
    }
  }

  /** Told of each chunk the app accepted, on the fleet's loop thread: keep it short. */
  @FunctionalInterface
  public interface ChunkWatcher {
    void accepted(Member member, long seq, byte[] bytes);
  }

  /**
   * What a fleet run did.
   *
   * @param members sims emulated
   * @param succeeded sims whose final {@code succeeded} the app accepted
   * @param failed sims whose final {@code failed} the app accepted (injected failures)
   * @param cancelled sims the app cancelled
   * @param unfinished sims that gave up or were refused before their report was accepted
   * @param chunks chunks the app accepted
   * @param bytes output bytes in those chunks
   * @param heartbeats heartbeats answered
   * @param retries requests that failed and were tried again
   * @param lostChunks chunks the app accepted and later reported missing
   * @param wall the fleet's wall time
   * @param heartbeatP50 median heartbeat round trip
   * @param heartbeatP99 99th percentile heartbeat round trip
   * @param heartbeatMax slowest heartbeat round trip
   */
  public record Report(
      int members,
      int succeeded,
      int failed,
      int cancelled,
      int unfinished,
      long chunks,
      long bytes,
      long heartbeats,
      long retries,
      long lostChunks,
      Duration wall,
      Duration heartbeatP50,
      Duration heartbeatP99,
      Duration heartbeatMax) {

    /** One line for people. */
    public String summary() {
      return String.format(
          java.util.Locale.ROOT,
          "%d sims: %d succeeded, %d failed, %d cancelled, %d unfinished; %d chunks (%d bytes),"
              + " %d heartbeats (p50 %.1f ms, p99 %.1f ms, max %.1f ms), %d retries, %d lost"
              + " chunks, %.1f s",
          members,
          succeeded,
          failed,
          cancelled,
          unfinished,
          chunks,
          bytes,
          heartbeats,
          heartbeatP50.toNanos() / 1e6,
          heartbeatP99.toNanos() / 1e6,
          heartbeatMax.toNanos() / 1e6,
          retries,
          lostChunks,
          wall.toNanos() / 1e9);
    }
  }

  /** Requests a fleet keeps open at once unless told otherwise. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 256;

  final URI mainUrl;
  final EmulatorOptions options;
  final List<Member> members;
  final Duration heartbeatInterval;
  final int chunkBytes;
  final Duration chunkAge;
  final Duration backoffInitial;
  final Duration backoffMax;
  final Duration giveUpAfter;
  final Duration requestTimeout;
  final int maxInFlight;
  final ChunkWatcher accepted;
  final PrintStream log;

  private EmulatorFleet(Builder b) {
    this.mainUrl = Objects.requireNonNull(b.mainUrl, "mainUrl");
    this.options = b.options;
    this.members = List.copyOf(b.members);
    this.heartbeatInterval = b.heartbeatInterval;
    this.chunkBytes = b.chunkBytes;
    this.chunkAge = b.chunkAge;
    this.backoffInitial = b.backoffInitial;
    this.backoffMax = b.backoffMax;
    this.giveUpAfter = b.giveUpAfter;
    this.requestTimeout = b.requestTimeout;
    this.maxInFlight = b.maxInFlight;
    this.accepted = b.accepted;
    this.log = b.log;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a fleet; every setting but the URL, options and members has a default. */
  public static final class Builder {
    private URI mainUrl;
    private EmulatorOptions options;
    private List<Member> members = List.of();
    private Duration heartbeatInterval = Duration.ofSeconds(2);
    private int chunkBytes = AgentSettings.DEFAULT_CHUNK_BYTES;
    private Duration chunkAge = Duration.ofSeconds(1);
    private Duration backoffInitial = Duration.ofMillis(250);
    private Duration backoffMax = Duration.ofSeconds(10);
    private Duration giveUpAfter = Duration.ofMinutes(10);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private ChunkWatcher accepted = (member, seq, bytes) -> {};
    private PrintStream log = System.err;

    private Builder() {}

    /** The app, {@code CASCADE_MAIN_URL}. */
    public Builder mainUrl(URI mainUrl) {
      this.mainUrl = mainUrl;
      return this;
    }

    /**
     * Trace, config, seed, speed and injected failure, shared by all members; needed by {@link
     * #run} and by members added without options of their own.
     */
    public Builder emulatorOptions(EmulatorOptions options) {
      this.options = options;
      return this;
    }

    public Builder members(List<Member> members) {
      this.members = members;
      return this;
    }

    public Builder heartbeatInterval(Duration heartbeatInterval) {
      this.heartbeatInterval = positive("heartbeat interval", heartbeatInterval);
      return this;
    }

    public Builder chunks(int chunkBytes, Duration chunkAge) {
      if (chunkBytes < 1 || chunkBytes > 8 << 20) {
        throw new IllegalArgumentException("chunk size must be 1 byte to 8 MiB; got " + chunkBytes);
      }
      this.chunkBytes = chunkBytes;
      this.chunkAge = positive("chunk age", chunkAge);
      return this;
    }

    public Builder backoff(Duration initial, Duration max) {
      this.backoffInitial = positive("first backoff", initial);
      this.backoffMax = positive("largest backoff", max);
      return this;
    }

    public Builder giveUpAfter(Duration giveUpAfter) {
      this.giveUpAfter = positive("give-up time", giveUpAfter);
      return this;
    }

    public Builder requestTimeout(Duration requestTimeout) {
      this.requestTimeout = positive("request timeout", requestTimeout);
      return this;
    }

    /**
     * At most this many requests open at once across all members ({@value #DEFAULT_MAX_IN_FLIGHT});
     * the rest wait their turn in the fleet, not counted in the heartbeat round trips. Each open
     * request holds a connection, and so a file descriptor.
     */
    public Builder maxInFlight(int maxInFlight) {
      if (maxInFlight < 1) {
        throw new IllegalArgumentException(
            "requests in flight must be 1 or more; got " + maxInFlight);
      }
      this.maxInFlight = maxInFlight;
      return this;
    }

    /** Told of every chunk the app accepts (a stress test checks them against the app's log). */
    public Builder onAccepted(ChunkWatcher accepted) {
      this.accepted = Objects.requireNonNull(accepted, "accepted");
      return this;
    }

    /** Where the fleet says what it does (stderr by default). */
    public Builder log(PrintStream log) {
      this.log = Objects.requireNonNull(log, "log");
      return this;
    }

    public EmulatorFleet build() {
      return new EmulatorFleet(this);
    }

    private static Duration positive(String what, Duration value) {
      Objects.requireNonNull(value, what);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("the " + what + " must be positive; got " + value);
      }
      return value;
    }
  }

  /**
   * Reads members from a file: one {@code <sim id> <token> [replica]} per line, blank lines and
   * {@code #} comments skipped; a missing replica is the line's position among members (from 0).
   *
   * @throws IllegalArgumentException for a malformed line, naming {@code file:line}
   */
  public static List<Member> readMembers(Path file) throws IOException {
    List<Member> members = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\\s+");
      if (fields.length < 2 || fields.length > 3) {
        throw new IllegalArgumentException(
            file + ":" + (i + 1) + ": expected '<sim id> <token> [replica]'; got '" + line + "'");
      }
      int replica = members.size();
      if (fields.length == 3) {
        try {
          replica = Integer.parseInt(fields[2]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              file + ":" + (i + 1) + ": replica '" + fields[2] + "' is not a whole number", e);
        }
      }
      members.add(new Member(fields[0], fields[1], replica));
    }
    return members;
  }

  /**
   * Runs every member given to the builder to its end and returns what happened.
   *
   * @throws IOException when the trace or config cannot be read
   * @throws IllegalStateException when the builder was given no members
   */
  public Report run() throws IOException, InterruptedException {
    if (members.isEmpty() || options == null) {
      throw new IllegalStateException(
          "a fleet run needs members (sim ids and tokens) and emulator options; got "
              + members.size()
              + " members"
              + (options == null ? " and no options" : ""));
    }
    try (FleetRun running = new FleetRun(this)) {
      running.preload(options);
      announce(members.size() + " sims on " + options.config() + ", trace " + options.trace());
      members.forEach(running::add);
      Report report = running.await(members.size(), Duration.ofDays(365));
      log.println("cascade emulate: " + report.summary());
      return report;
    }
  }

  /**
   * Starts the fleet's loop with no member yet: {@link FleetRun#add} adds them while it runs (a
   * launcher handing it each sim the app launches). The builder's members are not added.
   */
  public FleetRun start() {
    announce("started, members join as they come");
    return new FleetRun(this);
  }

  private void announce(String what) {
    log.println("cascade emulate: fleet of " + what + ", reporting to " + mainUrl);
  }
}
