package dev.cascade.cli;

import dev.cascade.client.CascadeClient;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the server is, shared by every client subcommand ({@code traces list|show}, {@code runs
 * ...}): {@code --url}, else {@code CASCADE_URL}, else {@code http://127.0.0.1:8080}; the token
 * comes from {@code CASCADE_TOKEN} only, so it never shows in a process list.
 */
final class ApiOptions {

  static final String URL_ENV = "CASCADE_URL";
  static final String TOKEN_ENV = "CASCADE_TOKEN";
  static final String DEFAULT_URL = "http://127.0.0.1:8080";

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "The Cascade server (default: $CASCADE_URL, else "
              + DEFAULT_URL
              + "). The token is always read from $CASCADE_TOKEN.")
  String url;

  /** The environment variables read; tests put their own. */
  Map<String, String> environment = CliEnvironment.current();

  /** What a command does with the server. */
  interface ServerCall<T> {
    T with(CascadeClient client) throws InterruptedException;
  }

  /**
   * Runs {@code call} with a client of the server, closed after; a refusal becomes one line for the
   * user ({@link #forUser}). A malformed URL is a usage error (exit 2).
   */
  <T> T call(ServerCall<T> call) throws InterruptedException {
    try (CascadeClient client = client()) {
      return call.with(client);
    } catch (CascadeException e) {
      throw forUser(e);
    }
  }

  /** A client of the server; a malformed URL is a usage error (exit 2). */
  CascadeClient client() {
    try {
      return client(url, environment);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(mixee.commandLine(), e.getMessage());
    }
  }

  /**
   * A client of {@code urlOption}, else {@code CASCADE_URL}, else {@value #DEFAULT_URL}, with the
   * token of {@code CASCADE_TOKEN}.
   *
   * @throws IllegalArgumentException when the URL is not an {@code http://} or {@code https://} URL
   *     with a host; the message names where it came from
   */
  static CascadeClient client(String urlOption, Map<String, String> environment) {
    String source;
    String value;
    if (urlOption != null) {
      source = "--url";
      value = urlOption;
    } else if (environment.get(URL_ENV) != null && !environment.get(URL_ENV).isBlank()) {
      source = URL_ENV;
      value = environment.get(URL_ENV);
    } else {
      source = "the default URL";
      value = DEFAULT_URL;
    }
    String notAUrl =
        source
            + " \""
            + value
            + "\" is not the URL of a Cascade server; give one such as "
            + DEFAULT_URL;
    try {
      return CascadeClient.connect(new URI(value.strip()), environment.get(TOKEN_ENV));
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IllegalArgumentException(notAUrl, e);
    }
  }

  /**
   * The server's refusal as one line: its message, in the words the web UI shows too (the field
   * path beside it is for programs), with a hint for a missing token.
   */
  static CascadeException forUser(CascadeException e) {
    String field = e.field();
    StringBuilder line = new StringBuilder(e.getMessage());
    if (e.code() == ErrorCode.UNAUTHORIZED) {
      line.append("; the cascade command sends ").append(TOKEN_ENV).append(" from the environment");
    }
    return new CascadeException(e.code(), line.toString(), field, e);
  }
}
