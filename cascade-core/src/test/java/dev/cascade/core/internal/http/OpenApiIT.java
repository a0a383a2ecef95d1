package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.ConfigCorrelation;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ConfigSpeedups;
import dev.cascade.core.CorrelationFit;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelMatch;
import dev.cascade.core.LogCollection;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import dev.cascade.core.NewUser;
import dev.cascade.core.PartialResults;
import dev.cascade.core.Role;
import dev.cascade.core.RunAction;
import dev.cascade.core.RunComparisons;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunPage;
import dev.cascade.core.RunStorage;
import dev.cascade.core.SimCommands;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.SimState;
import dev.cascade.core.Speedups;
import dev.cascade.core.Spread;
import dev.cascade.core.User;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.CompareJson;
import dev.cascade.core.json.CorrelationJson;
import dev.cascade.core.json.JsonSamples;
import dev.cascade.core.json.MeasureJson;
import dev.cascade.core.json.PartialJson;
import dev.cascade.core.json.ResultsJson;
import dev.cascade.core.json.RunListJson;
import dev.cascade.core.json.ScheduleJson;
import dev.cascade.core.json.StorageJson;
import dev.cascade.core.json.UsersJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class OpenApiIT {

  @TempDir Path dataDir;
  private ApiServer server;
  private JsonNode document;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir);
    document = server.get("/api/openapi.json").json();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void document_describesExactlyTheRegisteredRoutes() {
    List<String> described = new ArrayList<>();
    document
        .get("paths")
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .fieldNames()
                    .forEachRemaining(
                        method ->
                            described.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));

    // The web UI's page and files are not part of the API.
    List<String> apiRoutes =
        server.api.routes().stream().filter(route -> !StaticFiles.ROUTES.contains(route)).toList();
    assertThat(server.api.routes()).containsAll(StaticFiles.ROUTES);
    assertThat(apiRoutes).hasSizeGreaterThanOrEqualTo(17);
    assertThat(described).containsExactlyInAnyOrderElementsOf(apiRoutes);
  }

  @Test
  void document_isOpenApi3WithEveryReferenceDefined() {
    assertThat(document.get("openapi").asText()).startsWith("3.");
    assertThat(document.get("info").get("title").asText()).isNotBlank();
    JsonNode schemas = document.get("components").get("schemas");
    List<String> refs = new ArrayList<>();
    collectRefs(document, refs);
    assertThat(refs).isNotEmpty();
    for (String ref : refs) {
      assertThat(ref).startsWith("#/components/schemas/");
      assertThat(schemas.has(ref.substring("#/components/schemas/".length()))).as(ref).isTrue();
    }
  }

  @Test
  void document_givesEveryOperationAnIdResponsesAndSecurity() {
    List<String> ids = new ArrayList<>();
    document
        .get("paths")
        .forEach(
            item ->
                item.forEach(
                    operation -> {
                      ids.add(operation.get("operationId").asText());
                      assertThat(operation.get("responses").size()).isPositive();
                      assertThat(operation.has("security")).isTrue();
                    }));
    assertThat(ids).doesNotHaveDuplicates();
    JsonNode heartbeat = document.get("paths").get("/api/sims/{id}/heartbeat").get("post");
    assertThat(heartbeat.get("security").get(0).has("simToken")).isTrue();
    JsonNode runs = document.get("paths").get("/api/runs").get("post");
    assertThat(runs.get("security").get(0).has("userToken")).isTrue();
    assertThat(runs.get("responses").has("201")).isTrue();
    assertThat(runs.get("responses").has("422")).isTrue();
  }

  @Test
  void schemas_haveExactlyTheFieldsTheMappingWrites() {
    ConfigResult config =
        new ConfigResult(
            "SM90_H100",
            "sm_90",
            1980.0,
            2,
            2,
            List.of(JsonSamples.comparison("kernel_1")),
            JsonSamples.comparison(KernelComparison.TOTAL),
            List.of());
    SimEvent event =
        new SimEvent(1, "r_1", "s_1", SimEvent.Kind.LOG, JsonSamples.T0, "{\"lines\": []}");
    Map<String, Map<String, Object>> written = new LinkedHashMap<>();
    written.put("Trace", ApiJson.writeTrace(JsonSamples.trace(), true));
    written.put("TraceKernel", ApiJson.writeTraceKernel(JsonSamples.trace().kernels().get(0)));
    written.put(
        "GpuConfig", ApiJson.writeGpuConfig(GpuConfig.unusable("SM6_TITANX", "no config", null)));
    // "context", "sampling", "params", "sweep" and "label" are written only when the entry has
    // them: the sample has them all.
    written.put(
        "RunEntry",
        ApiJson.writeRunEntry(
            new RunEntry(
                "SM90_H100",
                1,
                null,
                null,
                "kernelslist_ctx_0x2",
                dev.cascade.core.Sampling.of(0.05),
                Map.of("-gpgpu_n_clusters", "66"),
                Map.of("-gpgpu_shader_cta", List.of("16", "32")),
                "half")));
    // A run as run responses show it: the mapping's fields and who did what to it (actions).
    Map<String, Object> run =
        new LinkedHashMap<>(ApiJson.writeRun(JsonSamples.run(), JsonSamples.T0));
    run.put("actions", List.of());
    run.put("storage", StorageJson.writeRunStorage(new RunStorage(1000, 50, 20, 0)));
    written.put("Run", run);
    written.put("User", UsersJson.writeUser(user()));
    written.put("UserList", UsersJson.writeUserList(List.of(user())));
    written.put("NewUser", UsersJson.writeNewUser(new NewUser(user(), "cascade_token")));
    written.put("Me", UsersJson.writeMe("alice", Role.SUBMITTER));
    written.put(
        "RunAction",
        UsersJson.writeAction(new RunAction(RunAction.RERUN, "alice", JsonSamples.T0, "r_2")));
    written.put("RunStorage", StorageJson.writeRunStorage(new RunStorage(1000, 50, 20, 0)));
    written.put(
        "GcResult",
        StorageJson.writeCollection(new LogCollection(JsonSamples.T0, 1, 2, 1000, 50, 3)));
    dev.cascade.core.SamplingPlan plan =
        dev.cascade.core.SamplingPlans.plan(
            "demo", JsonSamples.trace().kernels(), dev.cascade.core.Sampling.of(0.05));
    written.put("Sampling", dev.cascade.core.json.SamplingJson.writeSampling(plan.request()));
    written.put("SamplingPlan", dev.cascade.core.json.SamplingJson.writePlan(plan));
    written.put(
        "SamplingStratum", firstOf(dev.cascade.core.json.SamplingJson.writePlan(plan), "strata"));
    dev.cascade.core.SampledEstimate estimate =
        new dev.cascade.core.SampledEstimate(
            1,
            3,
            10,
            30,
            0.02,
            Map.of("cycles", new dev.cascade.core.SampledEstimate.Interval(100, 98, 102, 0.02, 0)),
            1.0,
            3.0,
            new dev.cascade.core.SampledEstimate.Validation("r_2", "succeeded", 101.0, -0.01));
    Map<String, Object> estimateJson = dev.cascade.core.json.SamplingJson.writeEstimate(estimate);
    written.put("SampledEstimate", estimateJson);
    @SuppressWarnings("unchecked")
    Map<String, Object> interval =
        (Map<String, Object>) ((Map<String, Object>) estimateJson.get("measures")).get("cycles");
    written.put("EstimateInterval", interval);
    @SuppressWarnings("unchecked")
    Map<String, Object> validation = (Map<String, Object>) estimateJson.get("validation");
    written.put("SamplingValidation", validation);
    written.put("RunSummary", RunListJson.writeSummary(JsonSamples.run()));
    written.put(
        "RunList", RunListJson.writePage(new RunPage(List.of(JsonSamples.run()), "cursor")));
    written.put(
        "RunConfigProgress", firstOf(RunListJson.writeSummary(JsonSamples.run()), "configs"));
    // A sim as run responses show it: the mapping's fields and the app's queued_reason.
    Map<String, Object> sim =
        new LinkedHashMap<>(
            ScheduleJson.writeSim(
                JsonSamples.runningSim(),
                JsonSamples.T0,
                new SimSchedule(
                    JsonSamples.runningSim().id(), null, JsonSamples.T0, "1 earlier sim")));
    sim.put("queued_reason", null);
    written.put("Sim", sim);
    written.put("KernelResult", ResultsJson.writeKernel(JsonSamples.kernel(), 1980.0));
    written.put(
        "SimKernels",
        ResultsJson.writeSimKernels(
            JsonSamples.runningSim(), 1980.0, List.of(JsonSamples.kernel())));
    dev.cascade.core.RunSpeed.Build build =
        new dev.cascade.core.RunSpeed.Build(
            "Accel-Sim [build a]", 3, 300.0, 280.0, 320.0, 0.7, "slower");
    dev.cascade.core.RunSpeed speed =
        new dev.cascade.core.RunSpeed(
            "r_1",
            "demo",
            List.of(
                new dev.cascade.core.RunSpeed.Config(
                    "SM90_H100", null, 2, 210.0, List.of("Accel-Sim [build b]"), List.of(build))));
    Map<String, Object> speedJson = dev.cascade.core.json.SpeedJson.write(speed);
    written.put("RunSpeed", speedJson);
    written.put("ConfigSpeed", firstOf(speedJson, "configs"));
    written.put("BuildSpeed", firstOf(firstOf(speedJson, "configs"), "earlier"));
    written.put("Spread", ResultsJson.writeSpread(JsonSamples.comparison("k").cycles()));
    written.put("KernelComparison", ResultsJson.writeKernelComparison(config.total()));
    written.put("ConfigResult", ResultsJson.writeConfigResult(config));
    written.put("Results", ResultsJson.writeResults(JsonSamples.run(), List.of(config)));
    written.put("Error", ApiJson.writeError("invalid", "bad", "trace_id"));
    written.put("Measure", MeasureJson.write(Measures.IPC));
    written.put(
        "MeasureCatalog", MeasureJson.writeCatalog(Measures.DEFAULTS, List.of("gpu_sim_cycle")));
    written.put(
        "MeasureVersusBaseline",
        MeasureJson.writeChange(Measures.IPC, Spread.of(1.0, 1.1), Spread.of(2.0, 2.1)));
    List<ConfigSpeedups> speedups = Speedups.against(List.of(config, config), null);
    written.put("KernelSpeedup", ResultsJson.writeSpeedup(speedups.get(1).total()));
    written.put("SpeedupRatio", ResultsJson.writeSpeedupRatio(speedups.get(1).total().cycles()));
    KernelMatch match = new KernelMatch("k", 0, "k(int)", 100.0, 110.0, 1.0, 1.1);
    ConfigCorrelation correlated =
        new ConfigCorrelation(
            "SM90_H100",
            List.of(match),
            CorrelationFit.of(List.of(100.0), List.of(110.0)),
            null,
            List.of());
    Map<String, Object> correlation =
        CorrelationJson.write(
            "r_1",
            new HardwareCorrelation("demo", "sm_90", "ncu.csv", 1, List.of(correlated), List.of()));
    written.put("HardwareCorrelation", correlation);
    written.put("ConfigCorrelation", firstOf(correlation, "configs"));
    written.put("KernelMatch", firstOf(firstOf(correlation, "configs"), "kernels"));
    written.put("CorrelationFit", fieldOf(firstOf(correlation, "configs"), "cycles"));
    written.put("HardwareStored", CorrelationJson.writeHardwareStored("demo", "ncu.csv", 5));
    written.put("SimEventData", toMap(ApiJson.writeEvent(event)));
    Map<String, Object> progress =
        PartialJson.write(
            new PartialResults(
                true,
                2,
                1,
                3,
                6,
                List.of(
                    new PartialResults.SimToCome("s_2", "SM90_H100", 1, SimState.RUNNING, 1, 3))));
    written.put("ResultsProgress", progress);
    written.put("SimToCome", firstOf(progress, "to_come"));
    Map<String, Object> comparison =
        CompareJson.write(
            RunComparisons.of(
                List.of(JsonSamples.run(), JsonSamples.run()),
                List.of(List.of(config), List.of(config))));
    written.put("RunComparison", comparison);
    written.put("ComparedRun", firstOf(comparison, "runs"));
    written.put("RunChange", firstOf(comparison, "changes"));
    Map<String, Object> configChange = firstOf(firstOf(comparison, "changes"), "configs");
    written.put("ConfigChange", configChange);
    written.put("InputDifference", firstOf(configChange, "inputs"));
    written.put("KernelChange", firstOf(configChange, "kernels"));
    written.put("MeasureChange", fieldOf(firstOf(configChange, "kernels"), "cycles"));
    written.put(
        "MeasureSummary", fieldOf(fieldOf(firstOf(configChange, "kernels"), "cycles"), "baseline"));

    written.put(
        "Simulator",
        SimulatorRoutes.describe(
            "accel-sim", SimCommands.emulator(SimCommands.DEMO_SPEED, Path.of("data"))));

    JsonNode schemas = document.get("components").get("schemas");
    // A requested measure's change sits beside the fixed three under its id: the schema's
    // additionalProperties, a MeasureChange.
    List<Measure> extra = Measures.parseList("gpu_tot_sim_insn:change");
    ConfigResult withExtra =
        new ConfigResult(
            "SM90_H100",
            "sm_90",
            1980.0,
            2,
            2,
            List.of(withMeasure(JsonSamples.comparison("kernel_1"))),
            withMeasure(JsonSamples.comparison(KernelComparison.TOTAL)),
            List.of());
    Map<String, Object> extraKernel =
        firstOf(
            firstOf(
                firstOf(
                    CompareJson.write(
                        RunComparisons.of(
                            List.of(JsonSamples.run(), JsonSamples.run()),
                            List.of(List.of(withExtra), List.of(withExtra)),
                            extra)),
                    "changes"),
                "configs"),
            "kernels");
    List<String> kernelChangeFields = new ArrayList<>();
    schemas
        .get("KernelChange")
        .get("properties")
        .fieldNames()
        .forEachRemaining(kernelChangeFields::add);
    kernelChangeFields.add("gpu_tot_sim_insn:change");
    assertThat(extraKernel.keySet()).containsExactlyInAnyOrderElementsOf(kernelChangeFields);
    assertThat(schemas.at("/KernelChange/additionalProperties/allOf/0/$ref").asText())
        .isEqualTo("#/components/schemas/MeasureChange");
    assertThat(fieldOf(extraKernel, "gpu_tot_sim_insn:change").keySet())
        .containsExactlyInAnyOrderElementsOf(fieldOf(extraKernel, "cycles").keySet());
    for (Map.Entry<String, Map<String, Object>> entry : written.entrySet()) {
      JsonNode schema = schemas.get(entry.getKey());
      assertThat(schema).as(entry.getKey()).isNotNull();
      List<String> described = new ArrayList<>();
      schema.get("properties").fieldNames().forEachRemaining(described::add);
      assertThat(entry.getValue().keySet())
          .as("the fields of %s", entry.getKey())
          .containsExactlyInAnyOrderElementsOf(described);
      schema
          .get("required")
          .forEach(
              required ->
                  assertThat(entry.getValue()).as(entry.getKey()).containsKey(required.asText()));
    }
  }

  private static User user() {
    return new User(
        "alice", Role.SUBMITTER, JsonSamples.T0, "local", JsonSamples.T0, JsonSamples.T0, "local");
  }

  private static KernelComparison withMeasure(KernelComparison row) {
    return new KernelComparison(
        row.name(),
        row.instance(),
        row.replicas(),
        row.cycles(),
        row.instructions(),
        row.ipc(),
        row.simulatedTimeUs(),
        Map.of("gpu_tot_sim_insn:change", row.instructions()));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> firstOf(Map<String, Object> map, String field) {
    return ((List<Map<String, Object>>) map.get(field)).get(0);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> fieldOf(Map<String, Object> map, String field) {
    return (Map<String, Object>) map.get(field);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> toMap(String json) {
    try {
      return ApiServer.JSON.readValue(json, Map.class);
    } catch (IOException e) {
      throw new AssertionError(json, e);
    }
  }

  private static void collectRefs(JsonNode node, List<String> refs) {
    if (node.isObject()) {
      node.properties()
          .forEach(
              field -> {
                if (field.getKey().equals("$ref")) {
                  refs.add(field.getValue().asText());
                } else {
                  collectRefs(field.getValue(), refs);
                }
              });
    } else if (node.isArray()) {
      node.forEach(child -> collectRefs(child, refs));
    }
  }
}
