package dev.cascade.accelsim.config;

/** A {@code gpgpusim.config} option whose value cannot be read; the message names file:line. */
public final class ConfigFormatException extends RuntimeException {

  public ConfigFormatException(String message) {
    super(message);
  }
}
