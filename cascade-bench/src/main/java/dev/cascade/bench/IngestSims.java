package dev.cascade.bench;

import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.internal.run.SimTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The ingest benchmark's set-up: the sims it plays, and the chunk bodies they send. */
final class IngestSims {

  private IngestSims() {}

  /**
   * Creates runs on the demo trace until {@code count} new sims exist; returns them with their
   * tokens: the launch's for the few sims the gated launcher was called for, a new one otherwise.
   */
  static List<SimRef> create(
      EmbeddedCascade app, GatedLauncher launcher, SimTokens tokens, int count) {
    List<SimRef> sims = new ArrayList<>();
    List<String> configs = app.configs();
    while (sims.size() < count) {
      int left = count - sims.size();
      List<RunEntry> entries = new ArrayList<>();
      for (String config : configs) {
        int n = Math.min(64, left);
        if (n > 0) {
          entries.add(new RunEntry(config, n));
          left -= n;
        }
      }
      Run run = app.cascade.runs().create(app.trace.id(), entries);
      int calls = Math.min(app.cascade.settings().maxLaunches(), app.simsCreated(run.sims()));
      for (Sim sim : run.sims()) {
        String launched = launcher.tokenOf(sim.id(), calls);
        sims.add(new SimRef(sim.id(), launched != null ? launched : tokens.issue(sim.id())));
      }
    }
    return sims;
  }

  /**
   * The emulator's whole output for the trace on {@code config}, cut after a newline into chunks of
   * at most {@code maxBytes}: what the benchmark's sims send, in order.
   */
  static List<byte[]> emulatorChunks(Path trace, String config, int maxBytes) throws IOException {
    Emulation emulation = Emulator.prepare(EmulatorOptions.of(trace, config).withSpeed(0));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Emulation.Piece piece = emulation.next(); piece != null; piece = emulation.next()) {
      all.writeBytes(piece.bytes());
    }
    byte[] log = all.toByteArray();
    List<byte[]> chunks = new ArrayList<>();
    int from = 0;
    while (from < log.length) {
      int to = Math.min(log.length, from + maxBytes);
      if (to < log.length) {
        int newline = to - 1;
        while (newline > from && log[newline] != '\n') {
          newline--;
        }
        if (newline > from) {
          to = newline + 1;
        }
      }
      chunks.add(Arrays.copyOfRange(log, from, to));
      from = to;
    }
    return chunks;
  }
}
