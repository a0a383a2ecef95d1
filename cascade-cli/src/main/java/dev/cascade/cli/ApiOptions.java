package dev.cascade.cli;

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

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "The Cascade server (default: $CASCADE_URL, else "
              + ApiClient.DEFAULT_URL
              + "). The token is always read from $CASCADE_TOKEN.")
  String url;

  /** The environment variables read; tests put their own. */
  Map<String, String> environment = System.getenv();

  /** A client of the server; a malformed URL is a usage error (exit 2). */
  ApiClient client() {
    try {
      return ApiClient.from(url, environment);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(mixee.commandLine(), e.getMessage());
    }
  }
}
