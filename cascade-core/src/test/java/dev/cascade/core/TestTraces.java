package dev.cascade.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Small traces written into a data dir's traces folder: {@link
 * dev.cascade.core.testkit.TestTraces}.
 */
final class TestTraces {

  private TestTraces() {}

  static Path folder(Path dataDir, String id) {
    return dev.cascade.core.testkit.TestTraces.folder(dataDir, id);
  }

  /** A processed trace of {@code kernels} small kernels; {@code metadata} is metadata.json. */
  static Path write(Path dataDir, String id, int kernels, String metadata) throws IOException {
    return dev.cascade.core.testkit.TestTraces.write(dataDir, id, kernels, metadata);
  }

  static Path writeReady(Path dataDir, String id, int kernels) throws IOException {
    return dev.cascade.core.testkit.TestTraces.writeReady(dataDir, id, kernels);
  }
}
