package dev.cascade.accelsim.stats;

import java.io.IOException;

/**
 * Writes the statistics of one or more simulator logs as one document while {@link
 * KernelStatsParser} reads them: hand it to each log's parser as the listener. Calls come in this
 * order: {@link #begin}, then for each log {@link #beginFile}, the parser's events and {@link
 * #endFile} with what {@link KernelStatsParser#finish} returned, and last {@link #end}.
 *
 * <p>{@link StatsJson} and {@link StatsCsv} are the formats of {@code cascade stats}. A listener
 * method that cannot write throws {@link java.io.UncheckedIOException}, which propagates out of the
 * parser's {@code feed} or {@code finish}.
 */
public interface StatsWriter extends StatsListener {

  /** The document starts. */
  default void begin() throws IOException {}

  /**
   * A log starts: what comes until {@link #endFile} belongs to it.
   *
   * @param file the log's name as the document shows it (the path the user gave, say)
   */
  void beginFile(String file) throws IOException;

  /** The log ended (or could not be read further) with {@code outcome}. */
  void endFile(LogOutcome outcome) throws IOException;

  /** The document ends: writes what closes it and flushes. */
  default void end() throws IOException {}
}
