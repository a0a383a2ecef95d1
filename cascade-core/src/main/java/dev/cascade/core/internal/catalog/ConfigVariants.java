package dev.cascade.core.internal.catalog;

import dev.cascade.accelsim.config.GpgpusimConfig;
import dev.cascade.agent.emulator.EmulatedGpu;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Measures;
import dev.cascade.core.RunEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The effective config of a run entry that changes its base config's options ({@link
 * RunEntry#params}): the base's {@code gpgpusim.config} and {@code trace.config} with each
 * parameter's lines set to the new value ({@link GpgpusimConfig#withValues}), written once to
 * {@code <folder>/<content hash>/<base name>/} (with {@value EmulatedGpu#VARIANT_FILE} listing the
 * parameters), so the simulator reads the variant as it reads any config folder and the provenance
 * hash of the folder's files differs per variant. A built-in config (no Accel-Sim) has no files:
 * its options are the ones the emulator models, written as a {@code gpgpusim.config}.
 *
 * <p>A parameter the base config does not set is refused, with the closest names it does set; a
 * value whose shape is wrong for the option ({@link ParamShapes}) is refused naming the option and
 * its format. A variant that sets the compute capability takes its architecture from it, so it is
 * checked against the trace like any config.
 */
public final class ConfigVariants {

  private final GpuConfigCatalog catalog;
  private final Path folder;

  /**
   * Variants of {@code catalog}'s configs, written under {@code folder} ({@code
   * $CASCADE_DATA_DIR/work/configs}); with a null folder, variants are only described (their clock
   * and SMs), never written.
   */
  public ConfigVariants(GpuConfigCatalog catalog, Path folder) {
    this.catalog = catalog;
    this.folder = folder;
  }

  /**
   * The config {@code entry}'s sims run: {@code base} itself for an entry without params and label,
   * else the variant, named {@link RunEntry#name()}, which the catalog then finds by name.
   *
   * @param field the request field the entry is, for errors ({@code entries[0]})
   * @throws CascadeException {@code INVALID} naming {@code field.params} for an unknown parameter
   *     or a value of the wrong shape
   */
  public GpuConfig effective(GpuConfig base, RunEntry entry, String field) {
    if (!entry.isVariant()) {
      if (entry.label() == null) {
        return base;
      }
      GpuConfig renamed = rename(base, entry.name(), base.arch(), base.warnings());
      catalog.rememberVariant(renamed);
      return renamed;
    }
    Files base0 = filesOf(base);
    GpgpusimConfig options = GpgpusimConfig.parse(base0.gpgpusim(), "gpgpusim.config");
    GpgpusimConfig traceOptions =
        GpgpusimConfig.parse(base0.trace() == null ? "" : base0.trace(), "trace.config");
    Set<String> known = new LinkedHashSet<>();
    options.names().forEach(name -> known.add("-" + name));
    traceOptions.names().forEach(name -> known.add("-" + name));
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> param : entry.params().entrySet()) {
      String name = param.getKey();
      String bare = name.substring(1);
      if (!known.contains(name)) {
        throw unknown(base, name, known, field);
      }
      String baseValue = traceOptions.value(bare).or(() -> options.value(bare)).orElse("");
      ParamShapes.problem(bare, param.getValue(), baseValue)
          .ifPresent(
              problem -> {
                throw new CascadeException(
                    ErrorCode.INVALID,
                    "parameter " + name + " of \"" + entry.name() + "\": " + problem,
                    field + ".params");
              });
      values.put(bare, param.getValue());
    }
    String gpgpusim = GpgpusimConfig.withValues(base0.gpgpusim(), values);
    String trace = base0.trace() == null ? null : GpgpusimConfig.withValues(base0.trace(), values);
    String directoryName =
        base.directory() != null ? base.directory().getFileName().toString() : base.name();
    Path directory =
        folder == null ? null : folder.resolve(hash(gpgpusim, trace)).resolve(directoryName);
    if (directory != null) {
      write(directory, gpgpusim, trace, entry, base.directory());
    }
    boolean capabilityChanged =
        entry.params().containsKey("-gpgpu_compute_capability_major")
            || entry.params().containsKey("-gpgpu_compute_capability_minor");
    GpuConfig read =
        ConfigDirectoryReader.fromConfig(
            directoryName,
            GpgpusimConfig.parse(gpgpusim, "gpgpusim.config of \"" + entry.name() + "\""),
            directory,
            trace != null,
            trace == null ? null : directory != null ? directory.resolve("trace.config") : null,
            "no trace.config: a real accel-sim.out needs one for trace-driven runs",
            !capabilityChanged);
    if (!read.usable()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "variant \"" + entry.name() + "\" cannot be used: " + read.reason(),
          field + ".params");
    }
    List<String> warnings = new ArrayList<>();
    for (String warning : read.warnings()) {
      if (!(base.directory() == null && warning.startsWith("no trace.config"))) {
        warnings.add(warning);
      }
    }
    GpuConfig variant = rename(read, entry.name(), read.arch(), warnings);
    catalog.rememberVariant(variant);
    return variant;
  }

  /**
   * The option files {@code entry}'s sims read, by file name ({@code gpgpusim.config}, and {@code
   * trace.config} when the config has one), as text: what a person downloads to see or rerun the
   * effective config by hand.
   */
  public Map<String, String> effectiveFiles(GpuConfig base, RunEntry entry, String field) {
    GpuConfig config = effective(base, entry, field);
    Map<String, String> files = new LinkedHashMap<>();
    if (config.directory() == null) {
      Files text = filesOf(base);
      if (entry.isVariant()) {
        // No folder to read back (a description only): apply the params to the text again.
        Map<String, String> values = new LinkedHashMap<>();
        entry.params().forEach((name, value) -> values.put(name.substring(1), value));
        files.put("gpgpusim.config", GpgpusimConfig.withValues(text.gpgpusim(), values));
      } else {
        files.put("gpgpusim.config", text.gpgpusim());
      }
      return files;
    }
    for (String name : List.of("gpgpusim.config", "trace.config")) {
      Path file = config.directory().resolve(name);
      if (java.nio.file.Files.isRegularFile(file)) {
        try {
          files.put(name, java.nio.file.Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + file, e);
        }
      }
    }
    return files;
  }

  /** The base's option files as text: its folder's, or the built-in config's modelled options. */
  private record Files(String gpgpusim, String trace) {}

  private static Files filesOf(GpuConfig base) {
    if (base.directory() == null) {
      StringBuilder text = new StringBuilder();
      text.append("# ")
          .append(base.name())
          .append(" from Cascade's built-in catalog: the options the emulator models\n");
      for (Map.Entry<String, String> option : EmulatedGpu.builtIn(base.name()).options()) {
        text.append('-').append(option.getKey()).append(' ').append(option.getValue()).append('\n');
      }
      return new Files(text.toString(), null);
    }
    try {
      // Beside gpgpusim.config, or where Accel-Sim keeps it apart.
      Path trace =
          base.traceConfig() != null
              ? base.traceConfig()
              : base.directory().resolve("trace.config");
      return new Files(
          java.nio.file.Files.readString(
              base.directory().resolve("gpgpusim.config"), StandardCharsets.UTF_8),
          java.nio.file.Files.isRegularFile(trace)
              ? java.nio.file.Files.readString(trace, StandardCharsets.UTF_8)
              : null);
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "cannot read GPU config \"" + base.name() + "\" to make a variant of it: " + e,
          "entries");
    }
  }

  private static CascadeException unknown(
      GpuConfig base, String name, Set<String> known, String field) {
    List<String> nearest = new ArrayList<>(Measures.nearest(name, known, 3));
    if (nearest.isEmpty()) {
      // A name missing its prefix, as Accel-Sim's own -gmem_skip_L1D for -gpgpu_gmem_skip_L1D.
      String bare = name.substring(1).toLowerCase(java.util.Locale.ROOT);
      known.stream()
          .filter(candidate -> candidate.toLowerCase(java.util.Locale.ROOT).contains(bare))
          .limit(3)
          .forEach(nearest::add);
    }
    return new CascadeException(
        ErrorCode.INVALID,
        "GPU config \""
            + base.name()
            + "\" does not set "
            + name
            + (base.directory() == null
                ? " (a built-in config has only the options the emulator models)"
                : " in its gpgpusim.config or trace.config")
            + (nearest.isEmpty()
                ? "; a variant may change only the options its base config sets"
                : "; did you mean "
                    + String.join(", ", nearest.stream().map(n -> "\"" + n + "\"").toList())
                    + "?"),
        field + ".params");
  }

  /** Writes the variant's folder once: into a new folder beside it, then moved into place. */
  /**
   * Writes the variant's folder once: its option files, the params it sets, and a copy of each
   * other file of the base's folder ({@code baseFolder}, null for a built-in config), since {@code
   * gpgpusim.config} names some by a relative path (the interconnect's {@code .icnt}) that the
   * simulator opens from the sim's working folder, where the launcher links them from here.
   */
  private static void write(
      Path directory, String gpgpusim, String trace, RunEntry entry, Path baseFolder) {
    if (java.nio.file.Files.isRegularFile(directory.resolve("gpgpusim.config"))) {
      return;
    }
    try {
      Path parent = directory.getParent();
      java.nio.file.Files.createDirectories(parent.getParent());
      Path staging = java.nio.file.Files.createTempDirectory(parent.getParent(), ".variant-");
      Path inside = staging.resolve(directory.getFileName());
      java.nio.file.Files.createDirectories(inside);
      if (baseFolder != null) {
        try (var files = java.nio.file.Files.list(baseFolder)) {
          for (Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
            java.nio.file.Files.copy(file, inside.resolve(file.getFileName().toString()));
          }
        }
      }
      java.nio.file.Files.writeString(
          inside.resolve("gpgpusim.config"),
          gpgpusim,
          StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING);
      if (trace != null) {
        java.nio.file.Files.writeString(
            inside.resolve("trace.config"),
            trace,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
      }
      StringBuilder params =
          new StringBuilder(
              "# The parameters this Cascade variant of "
                  + entry.gpuConfig()
                  + " sets over its base (already applied to gpgpusim.config and trace.config;"
                  + " not read by the simulator)\n");
      entry
          .params()
          .forEach((name, value) -> params.append(name).append(' ').append(value).append('\n'));
      java.nio.file.Files.writeString(inside.resolve(EmulatedGpu.VARIANT_FILE), params);
      try {
        java.nio.file.Files.move(staging, parent, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        deleteTree(staging); // another run wrote the same variant first
      } catch (IOException e) {
        if (!java.nio.file.Files.isRegularFile(directory.resolve("gpgpusim.config"))) {
          throw e;
        }
        deleteTree(staging);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the variant config " + directory, e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = java.nio.file.Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.deleteIfExists(path);
      }
    }
  }

  private static String hash(String gpgpusim, String trace) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(("gpgpusim.config\n" + gpgpusim).getBytes(StandardCharsets.UTF_8));
      digest.update(
          ("\ntrace.config\n" + (trace == null ? "" : trace)).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  private static GpuConfig rename(
      GpuConfig config, String name, String arch, List<String> warnings) {
    return new GpuConfig(
        name,
        arch,
        config.clockMhz(),
        config.sms(),
        config.hasTraceConfig(),
        config.usable(),
        config.reason(),
        warnings,
        config.directory(),
        config.traceConfig());
  }
}
