package dev.cascade.core.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A copy of everything written to {@code System.err} while it is open, which still reaches the real
 * stream too: slf4j-simple writes to whatever {@code System.err} is at the time, so a test can
 * check what the server logged (no stack trace, say). Closing puts the real stream back.
 */
public final class ErrCapture implements AutoCloseable {

  private final PrintStream original;
  private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

  private ErrCapture() {
    original = System.err;
    System.setErr(new PrintStream(new Tee(original, copy), true, StandardCharsets.UTF_8));
  }

  /** Starts copying {@code System.err}. */
  public static ErrCapture start() {
    return new ErrCapture();
  }

  /** What was written so far. */
  public String text() {
    return copy.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    System.setErr(original);
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
      first.write(bytes, offset, length);
      second.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      first.flush();
      second.flush();
    }
  }
}
