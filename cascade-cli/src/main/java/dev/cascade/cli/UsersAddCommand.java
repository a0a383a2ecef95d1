package dev.cascade.cli;

import dev.cascade.core.NewUser;
import dev.cascade.core.Role;
import dev.cascade.core.json.UsersJson;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade users add NAME --role ROLE}: adds a user and prints their token, once. */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description = {
      "Add a user with a role and print their token. The token is shown this once: the server"
          + " keeps only its hash. Give it to the user, who sets it as CASCADE_TOKEN or enters it"
          + " in the web UI.",
      "Roles: viewer (reads everything), submitter (also creates runs and cancels, retries and"
          + " reruns their own), admin (everything, others' runs and users included).",
      "Exit code 0 when added, 1 when the server refused (not an admin, the name taken), 2 on a"
          + " usage error."
    })
final class UsersAddCommand implements Callable<Integer> {

  private static final Pattern DURATION = Pattern.compile("(\\d{1,5})([dhm])");

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "NAME", description = "The user's name: 1 to 64 of A-Z a-z 0-9 . _ @ -.")
  String name;

  @Option(
      names = "--role",
      required = true,
      paramLabel = "ROLE",
      description = "viewer, submitter or admin.")
  String role;

  @Option(
      names = "--expires",
      paramLabel = "WHEN",
      description =
          "When the token stops working: a duration from now (90d, 12h, 30m), a date (2027-01-31,"
              + " midnight UTC) or a time (2027-01-31T12:00:00Z). Default: never.")
  String expires;

  @Option(names = "--json", description = "Print the user and token as the API's JSON.")
  boolean json;

  /** Now, for a duration; tests set their own. */
  Clock clock = Clock.systemUTC();

  @Override
  public Integer call() throws InterruptedException {
    Role parsedRole;
    try {
      parsedRole = Role.fromWireName(role);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--role: " + e.getMessage());
    }
    Instant expiresAt = expires == null ? null : expiresAt(expires);
    return api.call(
        client -> {
          NewUser created = client.addUser(name, parsedRole, expiresAt);
          return Printed.answer(
              spec,
              json,
              UsersJson.writeNewUser(created),
              out -> {
                out.println(
                    "Added "
                        + created.user().name()
                        + " as "
                        + created.user().role().wireName()
                        + created.user().expires().map(at -> ", token expires " + at).orElse("")
                        + ". Their token (shown this once; only its hash is kept):");
                out.println(created.token());
              });
        });
  }

  private Instant expiresAt(String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    Matcher duration = DURATION.matcher(value);
    if (duration.matches()) {
      long amount = Long.parseLong(duration.group(1));
      Duration length =
          switch (duration.group(2)) {
            case "d" -> Duration.ofDays(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofMinutes(amount);
          };
      return clock.instant().plus(length);
    }
    try {
      return text.strip().contains("T")
          ? Instant.parse(text.strip())
          : LocalDate.parse(text.strip()).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      throw new ParameterException(
          spec.commandLine(),
          "--expires must be a duration (90d, 12h, 30m), a date (2027-01-31) or a time"
              + " (2027-01-31T12:00:00Z); got \""
              + text
              + "\"");
    }
  }
}
