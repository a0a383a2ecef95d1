package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class NameSuggestionsTest {

  private static final List<String> CONFIGS = List.of("SM80_A100", "SM90_H100", "SM90_H200");

  @Test
  void closest_findsTheNameAfterCaseOrATypo() {
    assertThat(NameSuggestions.closest("sm90_h100", CONFIGS)).contains("SM90_H100");
    assertThat(NameSuggestions.closest("SM90_H1000", CONFIGS)).contains("SM90_H100");
    assertThat(NameSuggestions.closest("SM90H200", CONFIGS)).contains("SM90_H200");
  }

  @Test
  void closest_suggestsNothingForANameFarFromEvery() {
    assertThat(NameSuggestions.closest("XYZ", CONFIGS)).isEmpty();
    assertThat(NameSuggestions.closest("SM7_QV100", CONFIGS)).isEmpty();
  }

  @Test
  void edits_countsInsertionsDeletionsAndSubstitutions() {
    assertThat(NameSuggestions.edits("kitten", "sitting")).isEqualTo(3);
    assertThat(NameSuggestions.edits("", "abc")).isEqualTo(3);
    assertThat(NameSuggestions.edits("same", "same")).isZero();
  }
}
