package dev.cascade.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.EventStream;
import dev.cascade.core.KernelResult;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.RunPage;
import dev.cascade.core.RunQuery;
import dev.cascade.core.RunSpeed;
import dev.cascade.core.RunState;
import dev.cascade.core.RunSummary;
import dev.cascade.core.RunSummaryPage;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.SimState;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.ResultsJson;
import dev.cascade.core.json.RunListJson;
import dev.cascade.core.json.ScheduleJson;
import dev.cascade.core.json.SpeedJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs over {@code /api/runs} and sims' output over {@code /api/sims/{id}/...}. */
final class RemoteRuns implements Runs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Http http;

  RemoteRuns(Http http) {
    this.http = http;
  }

  @Override
  public Run create(String traceId, List<RunEntry> entries, RunOptions options) {
    return http.post(
        "/api/runs", ApiJson.writeRunRequest(traceId, entries, options), ApiJson::readRun);
  }

  /** Read from the run as the server shows it: each sim's place in the queue and estimate. */
  @Override
  public Map<String, SimSchedule> schedule(String runId) {
    return http.get(runPath(runId), ScheduleJson::read);
  }

  @Override
  public RunSpeed speed(String runId) {
    return http.get(runPath(runId) + "/speed", SpeedJson::read);
  }

  @Override
  public Run retry(String runId) {
    return http.post(runPath(runId) + "/retry", null, ApiJson::readRun);
  }

  @Override
  public Run rerun(String runId) {
    return http.post(runPath(runId) + "/rerun", null, ApiJson::readRun);
  }

  @Override
  public Optional<Run> find(String runId) {
    try {
      return Optional.of(get(runId));
    } catch (CascadeException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public Run get(String runId) {
    return http.get(runPath(runId), ApiJson::readRun);
  }

  /**
   * Every run, newest first, a page of {@value RunQuery#MAX_LIMIT} at a time. The list the server
   * gives has no sims, so each run is read on its own: one request per run.
   */
  @Override
  public List<Run> list() {
    List<Run> runs = new ArrayList<>();
    RunQuery query = RunQuery.firstPage().withLimit(RunQuery.MAX_LIMIT);
    while (true) {
      RunPage page = list(query);
      runs.addAll(page.runs());
      if (page.nextCursor() == null) {
        return runs;
      }
      query = query.withCursor(page.nextCursor());
    }
  }

  /**
   * The page's runs whole, with their sims: {@code GET /api/runs?...}, then each run of the page on
   * its own, so one request per run and every sim of each moved. To show a list, {@link
   * #summaries(RunQuery)} gives what the server lists in one request.
   */
  @Override
  public RunPage list(RunQuery query) {
    RunSummaryPage summaries = summaries(query);
    List<Run> runs = new ArrayList<>();
    for (RunSummary summary : summaries.runs()) {
      find(summary.id()).ifPresent(runs::add);
    }
    return new RunPage(runs, summaries.nextCursor());
  }

  /** {@code GET /api/runs?...}: the page of run summaries, in one request. */
  RunSummaryPage summaries(RunQuery query) {
    StringBuilder path = new StringBuilder("/api/runs?limit=").append(query.limit());
    appendParam(path, "trace", query.traceId());
    appendParam(path, "state", query.state() == null ? null : query.state().wireName());
    appendParam(path, "owner", query.owner());
    appendParam(path, "cursor", query.cursor());
    return http.get(path.toString(), RunListJson::readPage);
  }

  private static void appendParam(StringBuilder path, String name, String value) {
    if (value != null) {
      path.append('&')
          .append(name)
          .append('=')
          .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
  }

  @Override
  public Run cancel(String runId) {
    return http.post(runPath(runId) + "/cancel", null, ApiJson::readRun);
  }

  /**
   * Follows the run's events until every sim has reached a finished state (they never leave one),
   * or the time is up; then reads the run once more. A dropped stream resumes where it stopped.
   */
  @Override
  public Run await(String runId, Duration timeout) throws InterruptedException {
    Run run = get(runId);
    if (run.state() != RunState.ACTIVE) {
      return run;
    }
    Map<String, SimState> states = new HashMap<>();
    run.sims().forEach(sim -> states.put(sim.id(), sim.state()));
    long deadline = System.nanoTime() + timeout.toNanos();
    try (EventStream events = events(runId, 0)) {
      while (RunState.of(states.values()) == RunState.ACTIVE) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        Optional<SimEvent> event = events.next(Duration.ofNanos(left));
        if (event.isPresent() && event.get().kind() == SimEvent.Kind.SIM) {
          Sim sim = ApiJson.readSim(parse(event.get().data()));
          states.merge(sim.id(), sim.state(), (was, now) -> was.isFinished() ? was : now);
        }
      }
    }
    return get(runId);
  }

  @Override
  public EventStream events(String runId, long afterId) {
    return new SseEvents(http, runId, afterId, CascadeClient.StreamListener.SILENT);
  }

  /** The sim, read from its kernels' answer (which names its run) and then its run. */
  @Override
  public Sim sim(String simId) {
    String runId = http.get(simPath(simId) + "/kernels", node -> node.path("run_id").asText(null));
    return get(runId).sims().stream()
        .filter(sim -> sim.id().equals(simId))
        .findFirst()
        .orElseThrow(
            () -> new CascadeException(ErrorCode.NOT_FOUND, "there is no sim \"" + simId + "\""));
  }

  @Override
  public InputStream log(String simId) {
    return http.stream(simPath(simId) + "/log");
  }

  @Override
  public List<String> logTail(String simId, int lines) {
    return http.text(simPath(simId) + "/log?tail=" + lines).lines().toList();
  }

  @Override
  public List<KernelResult> kernels(String simId) {
    return http.get(simPath(simId) + "/kernels", ResultsJson::readSimKernels);
  }

  private static String runPath(String runId) {
    return "/api/runs/" + Http.segment(runId);
  }

  private static String simPath(String simId) {
    return "/api/sims/" + Http.segment(simId);
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("an event's data is not JSON: " + e.getMessage());
    }
  }
}
