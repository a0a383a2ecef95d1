package dev.cascade.core.spi;

/** Reads one sim's output as it arrives: see {@link Simulator#parser}. */
public interface OutputParser {

  /** Parses the next bytes of the log; a chunk may end anywhere, inside a line too. */
  void feed(byte[] bytes, int offset, int length);

  /** Ends the log: a partial last line is read as a line, and how the log ended is returned. */
  LogEnd finish();

  /** How the log ends as far as it has been read. */
  LogEnd end();
}
