package dev.cascade.accelsim.trace;

import java.io.DataInput;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An unsynchronized buffer in front of an {@link OutputStream}, with the few writes the
 * post-processor needs (bytes, ASCII text, decimal numbers, big-endian ints and longs). It does not
 * close the stream.
 */
final class ByteSink {

  private final OutputStream out;
  private final byte[] buffer;
  private final byte[] digits = new byte[20];
  private int size;
  private long written;

  ByteSink(OutputStream out, int bufferSize) {
    this.out = out;
    this.buffer = new byte[bufferSize];
  }

  void write(byte[] bytes, int offset, int length) throws IOException {
    if (length > buffer.length - size) {
      flushBuffer();
      if (length > buffer.length) {
        out.write(bytes, offset, length);
        written += length;
        return;
      }
    }
    System.arraycopy(bytes, offset, buffer, size, length);
    size += length;
    written += length;
  }

  void write(int b) throws IOException {
    if (size == buffer.length) {
      flushBuffer();
    }
    buffer[size++] = (byte) b;
    written++;
  }

  void writeAscii(String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    write(bytes, 0, bytes.length);
  }

  /** Writes {@code value} (at least 0) in decimal, as C++'s {@code ostream << unsigned} does. */
  void writeDecimal(long value) throws IOException {
    int i = digits.length;
    do {
      digits[--i] = (byte) ('0' + value % 10);
      value /= 10;
    } while (value > 0);
    write(digits, i, digits.length - i);
  }

  void writeInt(int value) throws IOException {
    write(value >>> 24);
    write(value >>> 16);
    write(value >>> 8);
    write(value);
  }

  void writeLong(long value) throws IOException {
    writeInt((int) (value >>> 32));
    writeInt((int) value);
  }

  /** Copies exactly {@code length} bytes from {@code in}. */
  void copyFrom(DataInput in, long length) throws IOException {
    while (length > 0) {
      if (size == buffer.length) {
        flushBuffer();
      }
      int chunk = (int) Math.min(length, buffer.length - size);
      in.readFully(buffer, size, chunk);
      size += chunk;
      written += chunk;
      length -= chunk;
    }
  }

  /** Bytes written so far, buffered or not. */
  long written() {
    return written;
  }

  /** Writes the buffer to the stream and flushes the stream. */
  void flush() throws IOException {
    flushBuffer();
    out.flush();
  }

  private void flushBuffer() throws IOException {
    if (size > 0) {
      out.write(buffer, 0, size);
      size = 0;
    }
  }
}
