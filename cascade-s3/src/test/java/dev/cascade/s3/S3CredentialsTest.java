package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class S3CredentialsTest {

  @Test
  void fromEnvironment_usesBothVariables() {
    S3Credentials credentials =
        S3Credentials.fromEnvironment(
            Map.of("CASCADE_S3_ACCESS_KEY", "profiler", "CASCADE_S3_SECRET_KEY", "s3cr3t-value"));

    assertThat(credentials.accessKey()).isEqualTo("profiler");
    assertThat(credentials.secretKey()).isEqualTo("s3cr3t-value");
    assertThat(credentials.generated()).isFalse();
  }

  @Test
  void fromEnvironment_generatesAPairWhenNeitherIsSet() {
    S3Credentials first = S3Credentials.fromEnvironment(Map.of("CASCADE_S3_ACCESS_KEY", " "));
    S3Credentials second = S3Credentials.fromEnvironment(Map.of());

    assertThat(first.generated()).isTrue();
    assertThat(first.accessKey()).matches("CASC[A-Z2-7]{16}");
    assertThat(first.secretKey()).matches("[A-Za-z0-9]{40}");
    assertThat(second.secretKey()).isNotEqualTo(first.secretKey());
  }

  @Test
  void fromEnvironment_rejectsOnlyOneOfThePair() {
    assertThatThrownBy(
            () -> S3Credentials.fromEnvironment(Map.of("CASCADE_S3_ACCESS_KEY", "profiler")))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("CASCADE_S3_SECRET_KEY");
              assertThat(e.getMessage())
                  .contains("CASCADE_S3_ACCESS_KEY is set but CASCADE_S3_SECRET_KEY is not");
            });
  }

  @Test
  void fromEnvironment_rejectsAKeyWithSpaces() {
    assertThatThrownBy(
            () ->
                S3Credentials.fromEnvironment(
                    Map.of("CASCADE_S3_ACCESS_KEY", "a b", "CASCADE_S3_SECRET_KEY", "secret")))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("accessKey (CASCADE_S3_ACCESS_KEY) must be printable ASCII"));
  }

  @Test
  void toString_neverShowsTheSecret() {
    S3Credentials credentials = new S3Credentials("profiler", "s3cr3t-value", false);

    assertThat(credentials.toString()).contains("profiler").doesNotContain("s3cr3t-value");
  }

  @Test
  void fromEnvironmentOrFile_keepsAGeneratedPairAcrossRestarts(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("s3-keys");

    S3Credentials first = S3Credentials.fromEnvironmentOrFile(Map.of(), file);
    S3Credentials again = S3Credentials.fromEnvironmentOrFile(Map.of(), file);

    assertThat(first.generated()).isTrue();
    assertThat(again.generated()).isFalse();
    assertThat(again.accessKey()).isEqualTo(first.accessKey());
    assertThat(again.secretKey()).isEqualTo(first.secretKey());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void fromEnvironmentOrFile_letsTheEnvironmentWin(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("s3-keys");
    S3Credentials.fromEnvironmentOrFile(Map.of(), file);

    S3Credentials chosen =
        S3Credentials.fromEnvironmentOrFile(
            Map.of("CASCADE_S3_ACCESS_KEY", "profiler", "CASCADE_S3_SECRET_KEY", "s3cr3t-value"),
            file);

    assertThat(chosen.accessKey()).isEqualTo("profiler");
  }

  @Test
  void fromEnvironmentOrFile_saysWhatToDoWithADamagedFile(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("s3-keys"), "access_key=\n");

    assertThatThrownBy(() -> S3Credentials.fromEnvironmentOrFile(Map.of(), file))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("damaged")
        .hasMessageContaining(file.toString());
  }
}
