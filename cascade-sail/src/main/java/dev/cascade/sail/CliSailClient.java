package dev.cascade.sail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@link SailClient} that drives Sail's {@code sail} command line, one process per call, with
 * {@code --json} output. Set up from the environment ({@link #fromEnvironment}):
 *
 * <ul>
 *   <li>{@code sail} on {@code PATH}, or {@value #CLI_ENV} naming the program;
 *   <li>{@value #API_KEY_ENV}, which the CLI reads itself;
 *   <li>the app's own sandbox id in {@value #SANDBOX_OVERRIDE_ENV} or, failing that, {@value
 *       #SANDBOX_ENV} (the variable the Sail SDK documents for the current sandbox).
 * </ul>
 *
 * <p>The commands it runs ({@code docs/sail.md} lists them) follow the Sail CLI's command groups
 * ({@code sail box create|list|checkpoint|exec|terminate}), but their options were written from the
 * SDKs' documented parameters, not from a CLI that ran here: check them against {@code sail box
 * --help} before relying on them. Failures are sorted by their message and exit code: "not found"
 * is {@link SailException.Kind#NOT_FOUND}; a refused key, a bad request or a usage error (exit 2)
 * is permanent; anything else, unreachable and busy services included, is transient.
 */
public final class CliSailClient implements SailClient {

  /** The {@code sail} program to use instead of the one on {@code PATH}. */
  public static final String CLI_ENV = "CASCADE_SAIL_CLI";

  /** The Sail API key, read by the CLI itself. */
  public static final String API_KEY_ENV = "SAIL_API_KEY";

  /** The current sandbox's id, as the Sail SDK documents it. */
  public static final String SANDBOX_ENV = "SAILBOX_ID";

  /** The app's own sandbox id, when {@value #SANDBOX_ENV} is not set or not the right one. */
  public static final String SANDBOX_OVERRIDE_ENV = "CASCADE_SAIL_SANDBOX_ID";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,199}");
  private static final int MAX_OUTPUT_BYTES = 1 << 20;
  private static final Set<String> DEAD_CHECKPOINTS =
      Set.of("failed", "error", "deleted", "deleting");
  private static final Set<String> DEAD_SANDBOXES =
      Set.of("terminated", "terminating", "failed", "error", "deleted");

  private final Path executable;
  private final String ownSandboxId;
  private final List<String> problems;
  private final Map<String, String> environment;

  private CliSailClient(
      Path executable,
      String ownSandboxId,
      List<String> problems,
      Map<String, String> environment) {
    this.executable = executable;
    this.ownSandboxId = ownSandboxId;
    this.problems = List.copyOf(problems);
    this.environment = Map.copyOf(environment);
  }

  /**
   * A client set up from {@code environment}, which is also the whole environment the {@code sail}
   * processes get. Never fails: what is missing shows in {@link #unavailableReason()}.
   */
  public static CliSailClient fromEnvironment(Map<String, String> environment) {
    List<String> problems = new ArrayList<>();
    Path executable = findCli(environment, problems);
    if (blank(environment.get(API_KEY_ENV))) {
      problems.add(
          API_KEY_ENV + " is not set: export SAIL_API_KEY=sk_... with a key from the Sail console");
    }
    String own = environment.get(SANDBOX_OVERRIDE_ENV);
    if (blank(own)) {
      own = environment.get(SANDBOX_ENV);
    }
    if (blank(own)) {
      own = null;
      problems.add(
          "the app's own sandbox id is unknown: run Cascade inside a Sailbox, which sets "
              + SANDBOX_ENV
              + ", or set "
              + SANDBOX_OVERRIDE_ENV
              + " to its id (sb_...)");
    } else if (!ID.matcher(own.strip()).matches()) {
      problems.add("the app's own sandbox id \"" + own + "\" is not a sandbox id such as sb_...");
      own = null;
    } else {
      own = own.strip();
    }
    return new CliSailClient(executable, own, problems, environment);
  }

  private static Path findCli(Map<String, String> environment, List<String> problems) {
    String named = environment.get(CLI_ENV);
    if (!blank(named)) {
      Path file = Path.of(named.strip());
      if (Files.isRegularFile(file) && Files.isExecutable(file)) {
        return file;
      }
      problems.add(CLI_ENV + " names \"" + named + "\", which is not an executable file");
      return null;
    }
    String path = environment.getOrDefault("PATH", "");
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isEmpty()) {
        continue;
      }
      Path file = Path.of(directory, "sail");
      if (Files.isRegularFile(file) && Files.isExecutable(file)) {
        return file;
      }
    }
    problems.add(
        "no sail command on PATH ("
            + path
            + "): install Sail's CLI (curl -fsSL https://cli.sailresearch.com/install.sh | sh,"
            + " or pip install sail) or set "
            + CLI_ENV
            + " to its path");
    return null;
  }

  @Override
  public Optional<String> unavailableReason() {
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }

  /** The {@code sail} program this client runs; empty when none was found. */
  public Optional<Path> executable() {
    return Optional.ofNullable(executable);
  }

  @Override
  public String ownSandboxId() {
    return ownSandboxId;
  }

  @Override
  public Optional<String> findCheckpoint(String sandboxId, String name)
      throws SailException, InterruptedException {
    String output =
        run(
            "sail box checkpoints " + sandboxId,
            List.of("box", "checkpoints", id(sandboxId), "--json"));
    return findByName(output, name, DEAD_CHECKPOINTS, "checkpoint_id", "id");
  }

  @Override
  public String checkpoint(String sandboxId, String name)
      throws SailException, InterruptedException {
    String output =
        run(
            "sail box checkpoint " + sandboxId,
            List.of("box", "checkpoint", id(sandboxId), "--name", id(name), "--json"));
    return idIn(output, "sail box checkpoint " + sandboxId, "checkpoint_id", "id");
  }

  @Override
  public Optional<String> findSandbox(String name) throws SailException, InterruptedException {
    String output =
        run("sail box list --name " + name, List.of("box", "list", "--name", id(name), "--json"));
    return findByName(output, name, DEAD_SANDBOXES, "sailbox_id", "id");
  }

  @Override
  public String createFromCheckpoint(String checkpointId, String name, boolean restoreMemory)
      throws SailException, InterruptedException {
    String what = "sail box create --from-checkpoint " + checkpointId;
    String output =
        run(
            what,
            List.of(
                "box",
                "create",
                "--from-checkpoint",
                id(checkpointId),
                "--name",
                id(name),
                restoreMemory ? "--restore-memory" : "--no-restore-memory",
                "--json"));
    return idIn(output, what, "sailbox_id", "id");
  }

  @Override
  public String exec(String sandboxId, SailExec exec) throws SailException, InterruptedException {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "box",
            "exec",
            id(sandboxId),
            "--background",
            "--idempotency-key",
            id(exec.idempotencyKey())));
    exec.environment().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            variable -> {
              args.add("--env");
              args.add(variable.getKey() + "=" + variable.getValue());
            });
    args.add("--json");
    args.add("--");
    args.addAll(exec.command());
    // The message names the sandbox only: the arguments hold the sim's token.
    String what = "sail box exec " + sandboxId;
    String output = run(what, args);
    return idIn(output, what, "exec_id", "id");
  }

  @Override
  public void terminate(String sandboxId) throws SailException, InterruptedException {
    try {
      run("sail box terminate " + sandboxId, List.of("box", "terminate", id(sandboxId)));
    } catch (SailException e) {
      if (!e.isNotFound()) {
        throw e;
      }
    }
  }

  /** The argument lists this client passes to {@code sail}, for the docs and the tests. */
  List<String> commandLine(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(executable == null ? "sail" : executable.toString());
    command.addAll(args);
    return command;
  }

  private String run(String what, List<String> args) throws SailException, InterruptedException {
    if (executable == null || !problems.isEmpty()) {
      throw new SailException(
          SailException.Kind.PERMANENT,
          "the sail CLI cannot be used: " + unavailableReason().orElse("not set up"));
    }
    Path out = null;
    Path err = null;
    Process process = null;
    try {
      out = Files.createTempFile("cascade-sail-", ".out");
      err = Files.createTempFile("cascade-sail-", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(commandLine(args))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      process = builder.start();
      int code = process.waitFor();
      String stdout = read(out);
      if (code == 0) {
        return stdout;
      }
      String stderr = read(err);
      String said = (stderr.strip() + "\n" + stdout.strip()).strip();
      throw new SailException(
          classify(code, said),
          what + " exited with " + code + (said.isEmpty() ? "" : ": " + lastChars(said, 500)));
    } catch (InterruptedException e) {
      if (process != null) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
      throw e;
    } catch (IOException e) {
      throw new SailException(
          SailException.Kind.PERMANENT, "cannot run " + executable + ": " + e.getMessage(), e);
    } finally {
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  /**
   * What a failed call's exit code and output say about trying again: {@code NOT_FOUND} for a
   * missing sandbox or checkpoint, {@code PERMANENT} for usage errors (exit 2), refused keys and
   * bad requests, {@code TRANSIENT} for everything else, network and service trouble included.
   */
  static SailException.Kind classify(int exitCode, String output) {
    String text = output.toLowerCase(Locale.ROOT);
    if (exitCode == 2
        || containsAny(text, "no such option", "no such command", "usage:", "invalid_argument")) {
      return SailException.Kind.PERMANENT;
    }
    if (containsAny(text, "not found", "not_found", "no such", "does not exist", "404")) {
      return SailException.Kind.NOT_FOUND;
    }
    if (containsAny(
        text,
        "unauthenticated",
        "unauthorized",
        "permission denied",
        "permission_denied",
        "forbidden",
        "invalid api key",
        "api key is invalid",
        "401",
        "403",
        "invalid argument",
        "failed_precondition",
        "already_exists",
        "quota")) {
      return SailException.Kind.PERMANENT;
    }
    return SailException.Kind.TRANSIENT;
  }

  private static boolean containsAny(String text, String... needles) {
    for (String needle : needles) {
      if (text.contains(needle)) {
        return true;
      }
    }
    return false;
  }

  /** The id of the first entry called {@code name} whose status is not one of {@code dead}. */
  static Optional<String> findByName(String output, String name, Set<String> dead, String... idKeys)
      throws SailException {
    JsonNode root = parse(output, "a list");
    JsonNode items = root;
    if (root.isObject()) {
      items = null;
      for (String field : List.of("checkpoints", "sailboxes", "items", "data")) {
        if (root.path(field).isArray()) {
          items = root.get(field);
          break;
        }
      }
    }
    if (items == null || !items.isArray()) {
      throw new SailException(
          SailException.Kind.PERMANENT,
          "the sail CLI's output is not a list: " + lastChars(output.strip(), 200));
    }
    for (JsonNode item : items) {
      if (!name.equals(item.path("name").asText(null))) {
        continue;
      }
      String status =
          item.path("status").asText(item.path("state").asText("")).toLowerCase(Locale.ROOT);
      if (dead.contains(status)) {
        continue;
      }
      for (String key : idKeys) {
        String id = item.path(key).asText(null);
        if (id != null && !id.isBlank()) {
          return Optional.of(id);
        }
      }
    }
    return Optional.empty();
  }

  /** The id in a call's output: a JSON object's first {@code keys} field, or a bare id line. */
  static String idIn(String output, String what, String... keys) throws SailException {
    String text = output.strip();
    if (text.startsWith("{")) {
      JsonNode root = parse(text, "an object");
      for (String key : keys) {
        String id = root.path(key).asText(null);
        if (id != null && !id.isBlank()) {
          return id;
        }
      }
    } else {
      String[] lines = text.split("\n");
      String last = lines[lines.length - 1].strip();
      if (ID.matcher(last).matches()) {
        return last;
      }
    }
    throw new SailException(
        SailException.Kind.PERMANENT,
        what
            + " answered without "
            + String.join(" or ", keys)
            + ": \""
            + lastChars(text, 200)
            + "\"; the sail CLI may have changed (see docs/sail.md)");
  }

  private static JsonNode parse(String output, String expected) throws SailException {
    try {
      return JSON.readTree(output.isBlank() ? "null" : output);
    } catch (IOException e) {
      throw new SailException(
          SailException.Kind.PERMANENT,
          "the sail CLI's output is not JSON ("
              + expected
              + " was expected): \""
              + lastChars(output.strip(), 200)
              + "\"",
          e);
    }
  }

  /** {@code value} as a command-line argument that cannot pass for an option. */
  private static String id(String value) {
    if (value == null || !ID.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "\"" + value + "\" is not a Sail id or name (letters, digits, . _ : - only)");
    }
    return value;
  }

  private static String read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_OUTPUT_BYTES), StandardCharsets.UTF_8);
    }
  }

  private static String lastChars(String text, int max) {
    return text.length() <= max ? text : "..." + text.substring(text.length() - max);
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A temporary file left behind is harmless.
    }
  }
}
