package dev.cascade.core.internal.http;

import dev.cascade.core.ListenAddress;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The server's one connector, with an accept queue sized for a fleet: thousands of sims connect at
 * once after a restart or at a run's start, and with Jetty's default backlog (the JDK's 50) the
 * kernel refuses or drops the connections past it, which sims see as connect timeouts.
 */
final class BurstConnector {

  /** Connections the kernel holds waiting for an accept (capped by {@code net.core.somaxconn}). */
  static final int ACCEPT_QUEUE = 4096;

  private BurstConnector() {}

  static ServerConnector create(
      org.eclipse.jetty.server.Server server,
      HttpConfiguration http,
      ListenAddress address,
      int port) {
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(address.literal());
    connector.setPort(port);
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    return connector;
  }
}
