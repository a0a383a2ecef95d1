package dev.cascade.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The progress of an upload on stderr. On a terminal, one bar redrawn in place at most ten times a
 * second: {@code [########------------] 41% 8.6/21.0 MiB 3/5 kernel-3.traceg}; elsewhere (a log, a
 * pipe), one line per file when it is done.
 */
final class UploadProgress {

  private static final int WIDTH = 24;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintWriter err;
  private final boolean interactive;
  private final int totalFiles;
  private final long totalBytes;
  private final LongSupplier nanoTime;
  private int filesDone;
  private String current = "";
  private long bytesDone;
  private long lastDraw = Long.MIN_VALUE;
  private int lastWidth;

  UploadProgress(
      PrintWriter err,
      boolean interactive,
      int totalFiles,
      long totalBytes,
      LongSupplier nanoTime) {
    this.err = err;
    this.interactive = interactive;
    this.totalFiles = totalFiles;
    this.totalBytes = totalBytes;
    this.nanoTime = nanoTime;
  }

  synchronized void fileStarted(String name) {
    current = name;
    draw(true);
  }

  /** All bytes sent so far, over every file. */
  synchronized void bytesSent(long bytes) {
    bytesDone = Math.max(bytesDone, Math.min(bytes, totalBytes));
    draw(false);
  }

  synchronized void fileDone(String name, long size, long bytesSoFar) {
    filesDone++;
    bytesDone = Math.min(bytesSoFar, totalBytes);
    if (interactive) {
      draw(true);
    } else {
      err.printf(Locale.ROOT, "  %s  %s  (%d/%d)%n", name, size(size), filesDone, totalFiles);
      err.flush();
    }
  }

  /** Ends the bar's line. */
  synchronized void finished() {
    if (interactive) {
      draw(true);
      err.println();
      err.flush();
    }
  }

  private void draw(boolean force) {
    if (!interactive) {
      return;
    }
    long now = nanoTime.getAsLong();
    if (!force && lastDraw != Long.MIN_VALUE && now - lastDraw < REDRAW_NANOS) {
      return;
    }
    lastDraw = now;
    double fraction = totalBytes == 0 ? 1 : (double) bytesDone / totalBytes;
    int filled = (int) Math.round(fraction * WIDTH);
    String line =
        String.format(
            Locale.ROOT,
            "[%s%s] %3d%%  %s/%s  %d/%d  %s",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            (int) Math.floor(fraction * 100),
            mib(bytesDone),
            mib(totalBytes) + " MiB",
            filesDone,
            totalFiles,
            current);
    String padded = line.length() < lastWidth ? line + " ".repeat(lastWidth - line.length()) : line;
    lastWidth = line.length();
    err.print("\r" + padded);
    err.flush();
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (1024.0 * 1024.0));
  }

  /**
   * As {@link Formats#size}: {@code 812 B}, {@code 14.8 KiB}, {@code 21.0 MiB}, {@code 1.2 GiB}.
   */
  static String size(long bytes) {
    return Formats.size(bytes);
  }
}
