package dev.cascade.cli;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.SimCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@code serve} and {@code run} share: where the data lives, its first traces, and an embedded
 * Cascade whose sims report to the HTTP server it starts beside it.
 */
final class AppSetup {

  /** The data dir when neither {@code --data-dir} nor {@code CASCADE_DATA_DIR} names one. */
  static final Path DEFAULT_DATA_DIR = Path.of("data");

  /** {@code --data-dir}, else {@code CASCADE_DATA_DIR}, else {@code ./data}. */
  static Path dataDir(Path option, Map<String, String> environment) {
    if (option != null) {
      return option.toAbsolutePath().normalize();
    }
    return CascadeSettings.dataDirFromEnvironment(environment)
        .orElse(DEFAULT_DATA_DIR)
        .toAbsolutePath()
        .normalize();
  }

  /**
   * A Cascade set up from the environment, with the sim command {@link
   * CascadeSettings#simCommandFromEnvironment} picks and an HTTP server with {@code server}
   * settings beside it, to which sims report unless {@code CASCADE_MAIN_URL} names another address
   * (as sims in remote sandboxes need).
   */
  static CascadeSettings.Builder cascade(
      Map<String, String> environment,
      Path dataDir,
      String launcher,
      SimCommands.Choice sims,
      ServerSettings server) {
    return Cascade.builder()
        .fromEnvironment(environment)
        .dataDir(dataDir)
        .launcher(launcher)
        .simCommand(sims.command())
        .server(server);
  }

  /**
   * {@code builder} with the local launcher's slots set by {@code --local-slots} when given; else
   * it keeps what {@code CASCADE_LOCAL_SLOTS} or the number of cores says.
   *
   * @throws CascadeException {@code INVALID} naming the option and value when out of range
   */
  static CascadeSettings.Builder localSlots(CascadeSettings.Builder builder, Integer option) {
    if (option == null) {
      return builder;
    }
    if (option < 1 || option > LocalLauncher.MAX_SLOTS) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "--local-slots must be 1 to " + LocalLauncher.MAX_SLOTS + " sims at once; got " + option,
          null);
    }
    return builder.localSlots(option);
  }

  /**
   * Gives a brand-new data dir (no database yet) the demo and sample traces, so there is something
   * to look at and run at once. Returns the ids written.
   */
  static List<String> seedIfNew(Path dataDir) throws IOException {
    if (Files.exists(dataDir.resolve("cascade.db"))) {
      return List.of();
    }
    return DemoTraces.seedIfEmpty(dataDir);
  }
}
