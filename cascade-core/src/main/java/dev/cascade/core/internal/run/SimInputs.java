package dev.cascade.core.internal.run;

import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.Provenance;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sim's numbers will come from, known before it launches ({@link Provenance}): the trace's
 * content hash, the GPU config's, and the simulator's identity. Hashes are remembered per file size
 * and modification time, so a multi-gigabyte trace is read once, not once per run.
 */
final class SimInputs {

  private static final Logger log = LoggerFactory.getLogger(SimInputs.class);

  /** A file's hash as last computed, valid while its size and modification time stay. */
  private record Stamped(long size, long modified, String hash) {}

  private final String simulator;
  private final Map<Path, Stamped> fileHashes = new ConcurrentHashMap<>();

  SimInputs(List<String> simCommand) {
    this.simulator = simulatorOf(simCommand).orElse(null);
  }

  /** The sim's inputs: {@code traceDir}'s trace (its first context) on {@code config}. */
  Provenance of(Path traceDir, GpuConfig config) {
    return of(traceDir, TraceContext.first(0), config);
  }

  /** The sim's inputs: {@code context} of {@code traceDir}'s trace on {@code config}. */
  Provenance of(Path traceDir, TraceContext context, GpuConfig config) {
    return new Provenance(
        traceHash(traceDir, context), configHash(config), simulator, null, null, null);
  }

  /**
   * {@code sha256:} of {@code kernelslist.g} and, in list order, each kernel file's name and bytes
   * (through their own hashes). For another CUDA context than the first, of the context's name and
   * then the same of its list ({@code kernelslist_ctx_0x2.g}), so reuse tells contexts apart; the
   * first context's hash is the trace's as it always was. Null when the trace cannot be read: the
   * sim then simulates, and its own error says why.
   */
  private String traceHash(Path traceDir, TraceContext context) {
    try {
      Optional<Path> list =
          context.isFirst() ? TraceLayout.findProcessedList(traceDir) : Optional.of(context.list());
      if (list.isEmpty()) {
        return null;
      }
      MessageDigest digest = sha256();
      if (!context.isFirst()) {
        digest.update(("context " + context.name() + "\n").getBytes(StandardCharsets.UTF_8));
      }
      digest.update(fileHash(list.get()).getBytes(StandardCharsets.UTF_8));
      for (KernelsList.Kernel kernel : KernelsList.read(list.get()).kernels()) {
        digest.update(("\n" + kernel.line() + "\n").getBytes(StandardCharsets.UTF_8));
        digest.update(fileHash(kernel.file()).getBytes(StandardCharsets.UTF_8));
      }
      return "sha256:" + HexFormat.of().formatHex(digest.digest());
    } catch (IOException | RuntimeException e) {
      log.warn("cannot hash the trace in {}: {}", traceDir, e.toString());
      return null;
    }
  }

  /**
   * {@code sha256:} of {@code gpgpusim.config} then {@code trace.config} (each file's name and
   * bytes; an absent {@code trace.config} counts as empty). The {@code trace.config} is the
   * config's own, wherever it is ({@link GpuConfig#traceConfig}: beside, or where Accel-Sim keeps
   * it apart), so the hash is the same for the same two files in either layout. A built-in config,
   * which has no files, is hashed from its facts: its name, architecture, clock and SM count.
   */
  private String configHash(GpuConfig config) {
    MessageDigest digest = sha256();
    if (config.directory() == null) {
      digest.update(
          ("built-in "
                  + config.name()
                  + " "
                  + config.arch()
                  + " "
                  + config.clockMhz()
                  + " "
                  + config.sms())
              .getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest.digest());
    }
    try {
      Map<String, Path> files = new LinkedHashMap<>();
      files.put("gpgpusim.config", config.directory().resolve("gpgpusim.config"));
      files.put(
          "trace.config",
          config.traceConfig() != null
              ? config.traceConfig()
              : config.directory().resolve("trace.config"));
      for (Map.Entry<String, Path> file : files.entrySet()) {
        digest.update(("\n" + file.getKey() + "\n").getBytes(StandardCharsets.UTF_8));
        if (Files.isRegularFile(file.getValue())) {
          digest.update(fileHash(file.getValue()).getBytes(StandardCharsets.UTF_8));
        }
      }
      return "sha256:" + HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      log.warn("cannot hash GPU config {}: {}", config.name(), e.toString());
      return null;
    }
  }

  /**
   * The emulator's version when the command runs it ({@code --emulate}); otherwise {@code sha256:}
   * of the simulator binary: the first existing file after the agent's {@code --}, or the command
   * itself when it has no {@code --} and is {@code accel-sim.out}. Empty when neither is known.
   */
  Optional<String> simulatorOf(List<String> command) {
    if (command.contains("--emulate")) {
      return Optional.of(Emulation.BUILD);
    }
    int separator = command.indexOf("--");
    // Without the agent's "--", only a command that is Accel-Sim itself says which simulator runs:
    // a shell or script in front could run anything.
    List<String> candidates =
        separator >= 0
            ? command.subList(separator + 1, command.size())
            : command.stream()
                .limit(1)
                .filter(first -> Path.of(first).getFileName().toString().startsWith("accel-sim"))
                .toList();
    for (String candidate : candidates) {
      Path file = Path.of(candidate);
      if (Files.isRegularFile(file)) {
        try {
          return Optional.of("sha256:" + fileHash(file));
        } catch (IOException e) {
          log.warn("cannot hash the simulator {}: {}", file, e.toString());
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  private String fileHash(Path file) throws IOException {
    Path key = file.toAbsolutePath().normalize();
    long size = Files.size(key);
    long modified = Files.getLastModifiedTime(key).toMillis();
    Stamped known = fileHashes.get(key);
    if (known != null && known.size() == size && known.modified() == modified) {
      return known.hash();
    }
    MessageDigest digest = sha256();
    try (InputStream in = new DigestInputStream(Files.newInputStream(key), digest)) {
      in.transferTo(OutputStream.nullOutputStream()); // the digest sees the bytes
    }
    String hash = HexFormat.of().formatHex(digest.digest());
    fileHashes.put(key, new Stamped(size, modified, hash));
    return hash;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }
}
