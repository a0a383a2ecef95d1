package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.ListenAddress;
import dev.cascade.core.ServerSettings;

/** Where the server may listen, and the URL a client on this machine reaches it at. */
final class BindAddress {

  private BindAddress() {}

  /**
   * The address to bind, parsed as every Cascade server parses it ({@link ListenAddress}). Without
   * a token only a loopback address is allowed: anyone who can reach the server could otherwise run
   * and cancel sims.
   */
  static ListenAddress requireSafe(ServerSettings settings) {
    ListenAddress address = ListenAddress.parse(settings.bind());
    if (!address.isLoopback() && !settings.hasToken()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "refusing to listen on \""
              + settings.bind()
              + "\" without a token: anyone who can reach it could run and cancel sims. Set"
              + " CASCADE_TOKEN (or ServerSettings.withToken) to a secret, or listen on 127.0.0.1",
          "bind");
    }
    return address;
  }

  /** The bound address, or loopback when bound to every address; IPv6 in brackets. */
  static String url(ListenAddress address, int port) {
    return "http://" + address.clientHost() + ":" + port;
  }
}
