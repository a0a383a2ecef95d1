package dev.cascade.cli;

import dev.cascade.core.ServerSettings;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;

/**
 * Core's {@link TestServer} (a ready trace {@code demo} of three kernels, a sample {@code sample},
 * a failed upload {@code broken}, sims the test plays) for the client commands' tests, with the
 * environment the commands read ({@code CASCADE_URL} set to the server) and a way to run them.
 */
final class CliTestServer implements AutoCloseable {

  static final Duration WAIT = TestServer.WAIT;
  static final int KERNELS = TestServer.KERNELS;

  private final TestServer test;
  final Engine engine;
  final HttpApi server;
  final Map<String, String> environment = new HashMap<>();

  CliTestServer(Path dataDir) throws Exception {
    this(dataDir, ServerSettings.defaults().withPort(0));
  }

  CliTestServer(Path dataDir, ServerSettings settings) throws Exception {
    test = new TestServer(dataDir, settings);
    engine = test.engine;
    server = test.server;
    environment.put("CASCADE_URL", server.url());
  }

  @Override
  public void close() {
    test.close();
  }

  /** Sends {@code log} as the sim's whole output, then its success. */
  void sendLogAndSucceed(SimLaunch sim, byte[] log) {
    test.sendLogAndSucceed(sim, log);
  }

  // ------------------------------------------------------------------ running the command

  /** What one command printed, and its exit code. */
  record Result(int exit, String out, String err) {}

  /** Runs {@code cascade args...} in-process against this server (via CASCADE_URL). */
  Result run(String... args) {
    WatchedOutput out = new WatchedOutput();
    return run(out, args);
  }

  Result run(WatchedOutput out, String... args) {
    StringWriter err = new StringWriter();
    int exit = commandLine(environment, out, err).execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  /** Cascade's command line with {@code environment} as the client commands' environment. */
  static CommandLine commandLine(Map<String, String> environment, Writer out, Writer err) {
    Map<String, String> copy = Map.copyOf(environment);
    CommandLine commandLine =
        new CommandLine(
            new CascadeCommand(),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                K created = CommandLine.defaultFactory().create(type);
                if (created instanceof ApiOptions options) {
                  options.environment = copy;
                }
                return created;
              }
            });
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine;
  }

  /** Output that a test can wait on: {@link #await} returns once the text has been written. */
  static final class WatchedOutput extends Writer {
    private final StringBuilder text = new StringBuilder();

    @Override
    public synchronized void write(char[] buffer, int offset, int length) {
      text.append(buffer, offset, length);
      notifyAll();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    /**
     * Waits until the output contains {@code expected}; fails with the output after {@link #WAIT}.
     */
    synchronized void await(String expected) throws InterruptedException, TimeoutException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (text.indexOf(expected) < 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new TimeoutException("no \"" + expected + "\" in the output:\n" + text);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    @Override
    public synchronized String toString() {
      return text.toString();
    }
  }

  // ------------------------------------------------------------------ playing the sims

  SimLaunch nextLaunch() throws InterruptedException {
    return test.nextLaunch();
  }

  List<SimLaunch> nextLaunches(int count) throws InterruptedException {
    return test.nextLaunches(count);
  }

  Map<String, SimLaunch> nextLaunchesByName(int count) throws InterruptedException {
    return test.nextLaunchesByName(count);
  }

  void heartbeat(SimLaunch sim) {
    test.heartbeat(sim);
  }

  void heartbeat(SimLaunch sim, String accelSimBuild) {
    test.heartbeat(sim, accelSimBuild);
  }

  void finishKernel(SimLaunch sim, int k) {
    test.finishKernel(sim, k);
  }

  void succeed(SimLaunch sim) {
    test.succeed(sim);
  }

  void fail(SimLaunch sim, String error) {
    test.fail(sim, error);
  }
}
