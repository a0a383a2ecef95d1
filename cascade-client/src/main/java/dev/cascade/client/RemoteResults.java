package dev.cascade.client;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.Measure;
import dev.cascade.core.Results;
import dev.cascade.core.json.CorrelationJson;
import dev.cascade.core.json.ResultsJson;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** {@code GET /api/runs/{id}/results} and {@code .../results.csv}. */
final class RemoteResults implements Results {

  private final Http http;

  RemoteResults(Http http) {
    this.http = http;
  }

  @Override
  public List<ConfigResult> compare(String runId) {
    return http.get("/api/runs/" + Http.segment(runId) + "/results", ResultsJson::readResults);
  }

  /** The server's results with {@code measures} beyond the defaults ({@code ?measures=}). */
  @Override
  public List<ConfigResult> compare(String runId, List<Measure> measures) {
    List<String> extra =
        measures.stream().filter(measure -> !measure.isDefault()).map(Measure::id).toList();
    if (extra.isEmpty()) {
      return compare(runId);
    }
    return http.get(
        "/api/runs/"
            + Http.segment(runId)
            + "/results?measures="
            + URLEncoder.encode(String.join(",", extra), StandardCharsets.UTF_8),
        ResultsJson::readResults);
  }

  @Override
  public HardwareCorrelation correlate(String runId) {
    return http.get("/api/runs/" + Http.segment(runId) + "/correlation", CorrelationJson::read);
  }

  /** The server's CSV as it wrote it. */
  @Override
  public String csv(String runId) {
    return http.text("/api/runs/" + Http.segment(runId) + "/results.csv");
  }

  /** The server's CSV with speedups over {@code baseline} (the first config when null). */
  @Override
  public String csv(String runId, String baseline) {
    if (baseline == null) {
      return csv(runId);
    }
    return http.text(
        "/api/runs/"
            + Http.segment(runId)
            + "/results.csv?baseline="
            + java.net.URLEncoder.encode(baseline, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** The server's CSV with speedups over {@code baseline} and the columns of {@code measures}. */
  @Override
  public String csv(String runId, String baseline, List<Measure> measures) {
    List<String> query = new ArrayList<>();
    if (baseline != null) {
      query.add("baseline=" + URLEncoder.encode(baseline, StandardCharsets.UTF_8));
    }
    List<String> extra =
        measures.stream().filter(measure -> !measure.isDefault()).map(Measure::id).toList();
    if (!extra.isEmpty()) {
      query.add("measures=" + URLEncoder.encode(String.join(",", extra), StandardCharsets.UTF_8));
    }
    return http.text(
        "/api/runs/"
            + Http.segment(runId)
            + "/results.csv"
            + (query.isEmpty() ? "" : "?" + String.join("&", query)));
  }

  /** The server's tidy CSV as it wrote it. */
  @Override
  public String simsCsv(String runId) {
    return http.text("/api/runs/" + Http.segment(runId) + "/results/sims.csv");
  }

  /** The server's get_stats.py CSV as it wrote it. */
  @Override
  public String getStatsCsv(String runId, boolean configsAsRows) {
    return http.text(
        "/api/runs/"
            + Http.segment(runId)
            + "/results/get_stats.csv"
            + (configsAsRows ? "?configs_as_rows=true" : ""));
  }
}
