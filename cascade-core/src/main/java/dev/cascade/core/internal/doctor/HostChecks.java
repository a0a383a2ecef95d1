package dev.cascade.core.internal.doctor;

import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogSummary;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Pacer;
import dev.cascade.core.DoctorCheck;
import dev.cascade.core.internal.demo.DemoTraceSeeder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The checks that need no Accel-Sim: the Java, the data dir, the emulator. */
public final class HostChecks {

  /** The oldest Java Cascade runs on. */
  static final int JAVA_FEATURE = 21;

  /** The config the emulator check runs the demo on: the demo's own (it is a Hopper trace). */
  static final String EMULATOR_CONFIG = "SM90_H100";

  private HostChecks() {}

  /** The Java running Cascade (sims run the same one). */
  public static DoctorCheck java() {
    Runtime.Version version = Runtime.version();
    String home = System.getProperty("java.home");
    String detail = "Java " + version + " at " + home;
    if (version.feature() < JAVA_FEATURE) {
      return DoctorCheck.fail(
          "java",
          "Java",
          detail,
          "Cascade needs Java "
              + JAVA_FEATURE
              + " or newer: install one (for example Temurin "
              + JAVA_FEATURE
              + ") and set JAVA_HOME to it; ./cascade finds it there");
    }
    return DoctorCheck.pass("java", "Java", detail);
  }

  /** The data dir exists or can be made, and takes a file. */
  public static DoctorCheck dataDir(Path dataDir) {
    String title = "data folder writable";
    try {
      Files.createDirectories(dataDir);
      Path probe = Files.createTempFile(dataDir, ".doctor-", ".tmp");
      Files.delete(probe);
      return DoctorCheck.pass("data_dir", title, dataDir + " takes writes");
    } catch (IOException | SecurityException e) {
      return DoctorCheck.fail(
          "data_dir",
          title,
          "cannot write to " + dataDir + ": " + Words.of(e),
          "choose a folder you can write with --data-dir or CASCADE_DATA_DIR, or make this one"
              + " writable (chmod u+w "
              + dataDir
              + ")");
    }
  }

  /** The emulator runs the demo trace to its end, as sims without an Accel-Sim do. */
  public static DoctorCheck emulator(DoctorWork work) {
    String title = "emulator runs the demo trace";
    try {
      Path trace = work.subfolder("demo");
      DemoTraceSeeder.writeDemo(trace);
      EmulatorOptions options = EmulatorOptions.of(trace, EMULATOR_CONFIG).withSpeed(0);
      Emulation emulation = Emulator.prepare(options);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int exit = Emulator.run(emulation, 0, out, Pacer.system());
      LogSummary log = LogSummary.parse(out.toString(StandardCharsets.UTF_8));
      long cycles = log.kernels().stream().mapToLong(KernelStats::cycles).sum();
      if (exit != 0 || !log.complete() || log.kernels().isEmpty()) {
        return DoctorCheck.fail(
            "emulator",
            title,
            "the emulator ended with code "
                + exit
                + " and "
                + log.kernels().size()
                + " kernels, "
                + log.outcome().state().label(),
            "this is a bug in Cascade: report it with this output");
      }
      return DoctorCheck.pass(
          "emulator",
          title,
          "the demo trace ("
              + log.kernels().size()
              + " kernels) on "
              + EMULATOR_CONFIG
              + ": "
              + cycles
              + " cycles, complete");
    } catch (IOException | RuntimeException e) {
      return DoctorCheck.fail(
          "emulator",
          title,
          "the emulator could not run the demo trace: " + Words.of(e),
          "check that the data dir's work/ folder takes writes; if it does, this is a bug in"
              + " Cascade: report it with this output");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return DoctorCheck.skip("emulator", title, "interrupted", "run cascade doctor again");
    }
  }
}
