package dev.cascade.core.internal.store;

import static dev.cascade.core.internal.store.StoreFixtures.T0;
import static dev.cascade.core.internal.store.StoreFixtures.newRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.run.SimTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sim tokens: random per launch, valid for their own sim only, never stored in clear. */
final class SimTokensTest {

  @TempDir Path dataDir;

  private final Ids ids = new Ids(new StoreFixtures.MutableClock(T0));
  private Database database;
  private SimTokens tokens;
  private String simA;
  private String simB;

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
    Run run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 2));
    new RunRepository(database).insert(run);
    simA = run.sims().get(0).id();
    simB = run.sims().get(1).id();
    tokens = new SimTokens(new SimTokenRepository(database));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void issue_givesATokenValidForItsOwnSimOnly() {
    String a = tokens.issue(simA);
    String b = tokens.issue(simB);

    assertThat(tokens.isValid(simA, a)).isTrue();
    assertThat(tokens.isValid(simB, b)).isTrue();
    assertThat(tokens.isValid(simB, a)).isFalse();
    assertThat(tokens.isValid(simA, b)).isFalse();
    assertThat(tokens.isValid("s_never", a)).isFalse();
    assertThat(tokens.isValid(simA, null)).isFalse();
  }

  @Test
  void issue_makesADifferentTokenEachLaunchAndEachStaysValidForItsSimOnly() {
    String first = tokens.issue(simA);
    String second = tokens.issue(simA);

    assertThat(second).isNotEqualTo(first).hasSizeGreaterThanOrEqualTo(43);
    // A relaunch after a crash may meet the first launch's process still reporting.
    assertThat(tokens.isValid(simA, first)).isTrue();
    assertThat(tokens.isValid(simA, second)).isTrue();
    assertThat(tokens.isValid(simB, first)).isFalse();
    assertThat(tokens.isValid(simB, second)).isFalse();
  }

  @Test
  void aRestartedAppStillKnowsTheTokensOfRunningSims() {
    String a = tokens.issue(simA);
    database.close();

    database = Database.open(dataDir.resolve("cascade.db"));
    SimTokens reopened = new SimTokens(new SimTokenRepository(database));

    assertThat(reopened.isValid(simA, a)).isTrue();
  }

  @Test
  void theDataDirHoldsNoTokenInClearAndNoSecretToComputeOne() throws IOException {
    List<String> issued = List.of(tokens.issue(simA), tokens.issue(simB));
    database.close();

    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dataDir)) {
      walk.filter(Files::isRegularFile).forEach(files::add);
    }
    assertThat(files)
        .isNotEmpty()
        .noneMatch(file -> file.getFileName().toString().contains("secret"));
    for (Path file : files) {
      String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (String token : issued) {
        assertThat(bytes).as("%s", file).doesNotContain(token);
      }
    }
    database = Database.open(dataDir.resolve("cascade.db"));
  }
}
