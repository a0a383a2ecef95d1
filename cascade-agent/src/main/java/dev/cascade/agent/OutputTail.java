package dev.cascade.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Passes the simulator's output on and keeps its last bytes, so that a simulator that fails before
 * its log says why (the dynamic loader's "symbol lookup error", "error while loading shared
 * libraries") can be reported in its own words.
 */
final class OutputTail extends OutputStream {

  /** Bytes of output kept. */
  static final int KEPT_BYTES = 4096;

  /** What the dynamic loader (ld.so) and the sim agent print when a program cannot start. */
  private static final List<String> START_FAILURES =
      List.of(
          "error while loading shared libraries",
          "symbol lookup error",
          "undefined symbol",
          "cannot open shared object file",
          "version `GLIBC",
          "cannot start the simulator");

  private static final int MAX_REASON_CHARS = 600;

  private final OutputStream out;
  private final byte[] ring = new byte[KEPT_BYTES];
  private long written;

  OutputTail(OutputStream out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    keep(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    synchronized (this) {
      int from = Math.max(off, off + len - KEPT_BYTES);
      written += from - off;
      for (int i = from; i < off + len; i++) {
        ring[(int) (written++ % KEPT_BYTES)] = b[i];
      }
    }
  }

  private synchronized void keep(int b) {
    ring[(int) (written++ % KEPT_BYTES)] = (byte) b;
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  /** The last bytes written, oldest first, as text. */
  synchronized String text() {
    int size = (int) Math.min(written, KEPT_BYTES);
    byte[] bytes = new byte[size];
    int start = (int) ((written - size) % KEPT_BYTES);
    for (int i = 0; i < size; i++) {
      bytes[i] = ring[(start + i) % KEPT_BYTES];
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * The lines of the kept output that say why a program could not start (the loader's words),
   * joined with {@code " | "}; empty when there is none.
   */
  String startFailure() {
    String reason =
        String.join(
            " | ",
            Arrays.stream(text().split("\\R"))
                .map(String::strip)
                .filter(line -> START_FAILURES.stream().anyMatch(line::contains))
                .distinct()
                .toList());
    return reason.length() <= MAX_REASON_CHARS
        ? reason
        : reason.substring(0, MAX_REASON_CHARS - 3) + "...";
  }
}
