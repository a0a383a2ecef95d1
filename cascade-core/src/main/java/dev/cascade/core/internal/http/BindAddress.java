package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.ServerSettings;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Where the server may listen, and the URL a client on this machine reaches it at. */
final class BindAddress {

  private BindAddress() {}

  /**
   * The address to bind. Without a token only a loopback address is allowed: anyone who can reach
   * the server could otherwise run and cancel sims.
   */
  static InetAddress requireSafe(ServerSettings settings) {
    InetAddress address;
    try {
      address = InetAddress.getByName(settings.bind());
    } catch (UnknownHostException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "cannot listen on \""
              + settings.bind()
              + "\": no such address; use an IP address such as 127.0.0.1",
          "bind",
          e);
    }
    if (!address.isLoopbackAddress() && !settings.hasToken()) {
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

  /** The bound address, or loopback when bound to every address. */
  static String url(InetAddress address, ServerSettings settings, int port) {
    String host =
        address.isAnyLocalAddress()
            ? "127.0.0.1"
            : address instanceof Inet6Address
                ? "[" + address.getHostAddress() + "]"
                : settings.bind();
    return "http://" + host + ":" + port;
  }
}
