package dev.cascade.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cascade configs}: the GPU config catalog, as people and programs want to read it. */
@Command(
    name = "configs",
    mixinStandardHelpOptions = true,
    description = {
      "The GPU config catalog: name, arch, clock_mhz, sms, usable, warnings.",
      "Reads --configs, else $CASCADE_ACCELSIM_CONFIGS, else"
          + " $CASCADE_ACCELSIM_DIR/gpu-simulator/gpgpu-sim/configs/tested-cfgs,"
          + " else Cascade's built-in catalog (for the emulator)."
    })
final class ConfigsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--configs", paramLabel = "DIR", description = "An Accel-Sim tested-cfgs folder.")
  Path configsFolder;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    GpuConfigCatalog catalog =
        configsFolder != null
            ? GpuConfigCatalog.fromFolder(configsFolder)
            : CascadeSettings.catalogFromEnvironment(CliEnvironment.current());
    List<GpuConfig> configs = catalog.list();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      printJson(out, catalog, configs);
    } else {
      printTable(out, catalog, configs);
    }
    out.flush();
    return 0;
  }

  private static void printJson(PrintWriter out, GpuConfigCatalog catalog, List<GpuConfig> configs)
      throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (GpuConfig config : configs) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("name", config.name());
      row.put("arch", config.arch());
      row.put("clock_mhz", config.usable() ? config.clockMhz() : null);
      row.put("sms", config.usable() ? config.sms() : null);
      row.put("has_trace_config", config.hasTraceConfig());
      row.put("usable", config.usable());
      row.put("reason", config.reason());
      row.put("warnings", config.warnings());
      row.put("directory", config.directory() == null ? null : config.directory().toString());
      rows.add(row);
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("source", catalog.source());
    document.put("built_in", catalog.isBuiltIn());
    document.put("configs", rows);
    out.println(
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document));
  }

  private static void printTable(
      PrintWriter out, GpuConfigCatalog catalog, List<GpuConfig> configs) {
    out.println("GPU configs from " + catalog.source() + ": " + configs.size());
    int nameWidth = Math.max(4, configs.stream().mapToInt(c -> c.name().length()).max().orElse(0));
    String format = "%-" + nameWidth + "s  %-6s  %9s  %4s  %-6s  %s%n";
    out.printf(Locale.ROOT, format, "NAME", "ARCH", "CLOCK_MHZ", "SMS", "USABLE", "NOTES");
    for (GpuConfig config : configs) {
      List<String> notes = new ArrayList<>();
      if (!config.usable()) {
        notes.add(config.reason());
      }
      notes.addAll(config.warnings());
      out.printf(
          Locale.ROOT,
          format,
          config.name(),
          config.arch() == null ? "-" : config.arch(),
          config.usable() ? String.format(Locale.ROOT, "%.1f", config.clockMhz()) : "-",
          config.usable() ? Integer.toString(config.sms()) : "-",
          config.usable() ? "yes" : "no",
          String.join("; ", notes));
    }
  }
}
