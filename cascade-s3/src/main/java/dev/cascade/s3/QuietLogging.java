package dev.cascade.s3;

/**
 * Keeps s3proxy and its shaded Jetty ({@code org.gaul.*}) at WARN under slf4j-simple, the backend
 * of the {@code cascade} command: at DEBUG they log every request with its headers, signatures
 * included, and at INFO they announce their own settings. A level the user set for {@code org.gaul}
 * is kept. slf4j-simple reads a logger's level when the logger is created, which is when s3proxy's
 * classes load, after {@link #apply()}. An embedder with another backend sets {@code org.gaul} to
 * WARN in its own configuration.
 */
final class QuietLogging {

  static final String LOGGER = "org.gaul";
  static final String SIMPLE_LOGGER_PROPERTY = "org.slf4j.simpleLogger.log." + LOGGER;

  private QuietLogging() {}

  static synchronized void apply() {
    if (System.getProperty(SIMPLE_LOGGER_PROPERTY) == null) {
      System.setProperty(SIMPLE_LOGGER_PROPERTY, "warn");
    }
  }
}
