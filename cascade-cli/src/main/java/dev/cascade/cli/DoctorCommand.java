package dev.cascade.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cascade.core.AccelSimDoctor;
import dev.cascade.core.DoctorCheck;
import dev.cascade.core.DoctorReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cascade doctor}: checks that this machine can run sims, with a real Accel-Sim when one is
 * configured, and prints each check's outcome with the fix in words ({@link AccelSimDoctor} does
 * the checking).
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = {
      "Checks that sims can run here: Java, the data folder, the emulator on the demo trace;"
          + " with an Accel-Sim ($CASCADE_ACCELSIM_DIR or --accelsim-dir), its accel-sim.out,"
          + " the shared libraries it needs (with the LD_LIBRARY_PATH sims get), its GPU configs,"
          + " and a one-kernel trace run through it.",
      "Prints each check as pass, fail or skip with the fix in words; exits 0 when none failed,"
          + " 1 otherwise."
    })
final class DoctorCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** The environment settings come from; tests replace it. */
  Map<String, String> environment = CliEnvironment.current();

  @Option(
      names = "--accelsim-dir",
      paramLabel = "DIR",
      description = "A built accel-sim-framework folder to check (default: $CASCADE_ACCELSIM_DIR).")
  Path accelSimDir;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "The data folder to check (default: $CASCADE_DATA_DIR, else ./data).")
  Path dataDir;

  @Option(
      names = "--smoke-config",
      paramLabel = "NAME",
      description =
          "The GPU config the one-kernel run uses (default: "
              + AccelSimDoctor.DEFAULT_SMOKE_CONFIG
              + " when usable, else the first with a trace.config).")
  String smokeConfig;

  @Option(
      names = "--time-limit",
      paramLabel = "SECONDS",
      description = "How long the one-kernel run may take (default: ${DEFAULT-VALUE}).",
      defaultValue = "120")
  long timeLimitSeconds;

  @Option(names = "--json", description = "Print JSON instead of a list.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (timeLimitSeconds < 1 || timeLimitSeconds > 3600) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--time-limit must be 1 to 3600 seconds; got " + timeLimitSeconds);
    }
    AccelSimDoctor.Builder builder =
        AccelSimDoctor.builder()
            .fromEnvironment(environment)
            .dataDir(AppSetup.dataDir(dataDir, environment))
            .timeLimit(Duration.ofSeconds(timeLimitSeconds));
    if (accelSimDir != null) {
      builder.accelSimDir(accelSimDir.toAbsolutePath().normalize());
    }
    if (smokeConfig != null) {
      builder.smokeConfig(smokeConfig);
    }
    DoctorReport report = builder.build().check();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      printJson(out, report);
    } else {
      printList(out, report);
    }
    out.flush();
    return report.passed() ? 0 : 1;
  }

  private static void printList(PrintWriter out, DoctorReport report) {
    for (DoctorCheck check : report.checks()) {
      out.println(check.status().label() + "  " + check.title() + ": " + check.detail());
      if (!check.fix().isEmpty()) {
        out.println("      fix: " + check.fix());
      }
    }
    List<DoctorCheck> failures = report.failures();
    out.println(
        failures.isEmpty()
            ? "all checks passed"
            : failures.size() + (failures.size() == 1 ? " check" : " checks") + " failed");
  }

  private static void printJson(PrintWriter out, DoctorReport report) throws Exception {
    List<Map<String, Object>> checks = new ArrayList<>();
    for (DoctorCheck check : report.checks()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", check.id());
      row.put("title", check.title());
      row.put("status", check.status().label());
      row.put("detail", check.detail());
      row.put("fix", check.fix().isEmpty() ? null : check.fix());
      checks.add(row);
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("passed", report.passed());
    document.put("checks", checks);
    out.println(
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document));
  }
}
