package dev.cascade.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The OS user the local launcher runs sims as ({@code cascade serve --sim-user}), and how: {@code
 * runuser -u USER --} when the app is root, else {@code sudo -n -u USER --} (which must not ask for
 * a password).
 *
 * @param name the user
 * @param asRoot the app runs as root: {@code runuser}, and the sim's folders are given to the user
 * @param runuser {@code runuser}'s path when {@code asRoot}
 */
record SimUser(String name, boolean asRoot, Path runuser) {

  private static final List<Path> RUNUSER =
      List.of(Path.of("/usr/sbin/runuser"), Path.of("/sbin/runuser"), Path.of("/usr/bin/runuser"));

  /**
   * The user when sims can run as it here.
   *
   * @throws CascadeException {@code INVALID} naming the user and why not, and what to do
   */
  static SimUser check(String name) {
    if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_.-]{0,31}")) {
      throw invalid(name, "it is not a user name");
    }
    String uid = run(List.of("id", "-u", name)).orElse("");
    if (!uid.matches("\\d+")) {
      throw invalid(name, "there is no such user on this machine (id -u " + name + ")");
    }
    long own = ownUid();
    if (Long.parseLong(uid) == own) {
      throw invalid(
          name, "it is the server's own user; name another, so sims cannot read the server");
    }
    if (own == 0) {
      Path runuser =
          RUNUSER.stream()
              .filter(Files::isExecutable)
              .findFirst()
              .orElseThrow(
                  () -> invalid(name, "runuser is not installed (util-linux); install it"));
      return new SimUser(name, true, runuser);
    }
    Optional<String> sudo = run(List.of("sudo", "-n", "-u", name, "--", "true"));
    if (sudo.isEmpty()) {
      throw invalid(
          name,
          "sudo -n -u "
              + name
              + " true failed (no sudo, or it would ask for a password); add a sudoers rule that"
              + " lets this user run commands as "
              + name
              + " with NOPASSWD, or run cascade serve as root");
    }
    return new SimUser(name, false, null);
  }

  /** The words that run what follows them as this user. */
  List<String> prefix() {
    return asRoot
        ? List.of(runuser.toString(), "-u", name, "--")
        : List.of("sudo", "-n", "-u", name, "--");
  }

  /**
   * Makes {@code folder} and lets this user write in it: its owner when the app is root, else
   * writable by all (the app cannot give a file away without root).
   */
  void own(Path folder) throws IOException {
    Files.createDirectories(folder);
    if (asRoot) {
      UserPrincipal user =
          folder.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name);
      Files.setOwner(folder, user);
    } else {
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
    }
  }

  private static long ownUid() {
    try {
      return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
    } catch (IOException | UnsupportedOperationException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "--sim-user needs Linux (/proc/self tells the server's own user): " + e.getMessage(),
          "sim-user");
    }
  }

  /** The command's trimmed stdout when it exits 0 within 10 s; empty otherwise. */
  private static Optional<String> run(List<String> command) {
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.empty();
      }
      return process.exitValue() == 0
          ? Optional.of(new String(out, StandardCharsets.UTF_8).strip())
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static CascadeException invalid(String name, String why) {
    return new CascadeException(
        ErrorCode.INVALID, "cannot run sims as user \"" + name + "\": " + why, "sim-user");
  }
}
