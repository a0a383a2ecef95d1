package dev.cascade.core.json;

import static dev.cascade.core.json.ApiJsonTest.sent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cascade.core.Provenance;
import dev.cascade.core.Run;
import dev.cascade.core.RunConfigProgress;
import dev.cascade.core.RunPage;
import dev.cascade.core.RunState;
import dev.cascade.core.RunSummary;
import dev.cascade.core.RunSummaryPage;
import dev.cascade.core.Sim;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runs list's page: summaries counted from the runs, written, sent, read back equal. */
final class RunListJsonTest {

  /** The sample run with its failed SM90_H200 sim retried: the retry, pending, is what counts. */
  private static Run retriedRun() {
    Sim failed = JsonSamples.failedSim();
    Sim retry =
        new Sim(
            "s_3",
            "r_1",
            failed.gpuConfig(),
            failed.replica(),
            SimState.PENDING,
            null,
            null,
            null,
            JsonSamples.T0.plusSeconds(5),
            null,
            null,
            null,
            null,
            new SimProgress(0, 3, null, Map.of(), null),
            failed.attempt() + 1,
            null,
            null,
            Provenance.UNKNOWN,
            null);
    Run run = JsonSamples.run();
    List<Sim> sims = new ArrayList<>(run.sims());
    sims.add(retry);
    return new Run(
        run.id(), run.traceId(), run.entries(), run.createdAt(), sims, "bob", run.priority());
  }

  @Test
  void summary_countsTheLatestAttempts_inTotalAndPerConfig() {
    RunSummary summary = RunSummary.of(retriedRun());

    assertThat(summary.state()).isEqualTo(RunState.ACTIVE);
    assertThat(summary.owner()).isEqualTo("bob");
    assertThat(summary.simCount()).isEqualTo(2);
    assertThat(summary.simsByState())
        .containsExactly(Map.entry(SimState.PENDING, 1), Map.entry(SimState.RUNNING, 1));
    assertThat(summary.kernelsDone()).isEqualTo(1);
    assertThat(summary.kernelsTotal()).isEqualTo(6);
    assertThat(summary.configs())
        .containsExactly(
            new RunConfigProgress("SM90_H100", 2, Map.of(SimState.RUNNING, 1), 1, 3),
            new RunConfigProgress("SM90_H200", 1, Map.of(SimState.PENDING, 1), 0, 3));
  }

  @Test
  void page_roundTrips_andWritesWhatTheServerWroteAgain() throws IOException {
    RunPage page = new RunPage(List.of(retriedRun(), JsonSamples.run()), "next");

    JsonNode written = sent(RunListJson.writePage(page));
    RunSummaryPage read = RunListJson.readPage(written);

    assertThat(read).isEqualTo(RunSummaryPage.of(page));
    assertThat(sent(RunListJson.writePage(read))).isEqualTo(written);
    assertThat(written.get("runs").get(0).get("sims_by_state").toString())
        .isEqualTo("{\"pending\":1,\"running\":1}");
    assertThat(written.get("runs").get(0).get("configs").get(1).toString())
        .isEqualTo(
            "{\"gpu_config\":\"SM90_H200\",\"count\":1,\"sims_by_state\":{\"pending\":1},"
                + "\"kernels_done\":0,\"kernels_total\":3}");
  }

  @Test
  void summary_hasTheRunFieldsAsTheRunItselfIsWritten() throws IOException {
    Run run = retriedRun();
    JsonNode summary = sent(RunListJson.writeSummary(run));
    JsonNode whole = sent(ApiJson.writeRun(run, JsonSamples.T0));

    for (String field :
        List.of("id", "trace_id", "state", "created_at", "owner", "priority", "entries")) {
      assertThat(summary.get(field)).as(field).isEqualTo(whole.get(field));
    }
    assertThat(summary.has("sims")).isFalse();
  }

  @Test
  void lastPage_hasANullCursor() throws IOException {
    JsonNode written = sent(RunListJson.writePage(new RunPage(List.of(JsonSamples.run()), null)));

    assertThat(written.get("next_cursor").isNull()).isTrue();
    assertThat(RunListJson.readPage(written).nextCursor()).isNull();
  }

  @Test
  void readSummary_ignoresAFieldANewerServerAdds_andNamesAMissingOne() throws IOException {
    ObjectNode summary = (ObjectNode) sent(RunListJson.writeSummary(JsonSamples.run()));
    summary.put("eta_s", 12);

    assertThat(RunListJson.readSummary(summary)).isEqualTo(RunSummary.of(JsonSamples.run()));

    summary.remove("kernels_done");
    assertThatThrownBy(() -> RunListJson.readSummary(summary))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kernels_done");
  }
}
