package dev.cascade.accelsim.stats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Objects;

/**
 * The {@code cascade stats --csv} document: a header, then one row per kernel of every log, in log
 * order:
 *
 * <pre>
 * file,name,uid,instance,cycles,instructions,ipc
 * run.log,_Z14dynproc_kerneliPiS_S_iiii,1,0,9118,209400,22.965562623382322
 * </pre>
 *
 * <p>Lines end in {@code \n}; a field holding a comma, quote or line break is quoted as RFC 4180
 * says; {@code ipc} is written as {@link Double#toString(double)} does. Build strings and outcomes
 * are not part of it (see {@link StatsJson}). Not thread-safe.
 */
public final class StatsCsv implements StatsWriter {

  /** The first line. */
  public static final String HEADER = "file,name,uid,instance,cycles,instructions,ipc";

  private final Writer out;
  private String file;

  /** A document written to {@code out}, which it does not close or flush before {@link #end}. */
  public StatsCsv(Writer out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  @Override
  public void begin() throws IOException {
    out.write(HEADER + '\n');
  }

  @Override
  public void beginFile(String file) {
    this.file = field(Objects.requireNonNull(file, "file"));
  }

  @Override
  public void onKernelFinished(KernelStats kernel) {
    try {
      out.write(row(file, kernel));
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  @Override
  public void endFile(LogOutcome outcome) {}

  @Override
  public void end() throws IOException {
    out.flush();
  }

  /** One kernel's row, with its line end; {@code file} is quoted already. */
  private static String row(String file, KernelStats kernel) {
    return file
        + ','
        + field(kernel.name())
        + ','
        + kernel.uid()
        + ','
        + kernel.instance()
        + ','
        + kernel.cycles()
        + ','
        + kernel.instructions()
        + ','
        + kernel.ipc()
        + '\n';
  }

  /**
   * {@code text} as one CSV field: as it is, or quoted when it holds a comma, quote or line end.
   */
  static String field(String text) {
    if (text.indexOf(',') < 0
        && text.indexOf('"') < 0
        && text.indexOf('\n') < 0
        && text.indexOf('\r') < 0) {
      return text;
    }
    return '"' + text.replace("\"", "\"\"") + '"';
  }
}
