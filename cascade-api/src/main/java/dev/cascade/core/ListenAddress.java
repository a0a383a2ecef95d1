package dev.cascade.core;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Objects;

/**
 * An address a server listens on, parsed once so that every server of one Cascade (the API, the
 * embedded S3 endpoint) reads {@code --bind} the same way: {@code 127.1}, {@code ::ffff:127.0.0.1}
 * and {@code localhost} all mean 127.0.0.1, and URLs put IPv6 in brackets.
 */
public final class ListenAddress {

  private final String given;
  private final InetAddress address;

  private ListenAddress(String given, InetAddress address) {
    this.given = given;
    this.address = address;
  }

  /**
   * Parses {@code text}: an IPv4 or IPv6 address (brackets allowed), or a host name of this
   * machine.
   *
   * @throws CascadeException {@code INVALID} (field {@code bind}) naming the text when it is no
   *     address
   */
  public static ListenAddress parse(String text) {
    Objects.requireNonNull(text, "bind");
    String stripped = text.strip();
    if (stripped.isEmpty()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "bind must be an address to listen on, such as 127.0.0.1; got a blank one",
          "bind");
    }
    String host =
        stripped.startsWith("[") && stripped.endsWith("]")
            ? stripped.substring(1, stripped.length() - 1)
            : stripped;
    try {
      return new ListenAddress(stripped, InetAddress.getByName(host));
    } catch (UnknownHostException | SecurityException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "cannot listen on \"" + text + "\": no such address; use an IP address such as 127.0.0.1",
          "bind",
          e);
    }
  }

  /** The text it was parsed from, as the user wrote it. */
  public String given() {
    return given;
  }

  public InetAddress address() {
    return address;
  }

  /** The address in its usual form, for a server to bind: {@code 127.0.0.1}, {@code ::1}. */
  public String literal() {
    return usualForm(address);
  }

  /** {@link #literal()} as the host of a URL: IPv6 in brackets. */
  public String literalInUrl() {
    return bracketed(address);
  }

  /**
   * The host a client on this machine uses in a URL: the address itself, or loopback when it is
   * every address ({@code 0.0.0.0}, {@code ::}).
   */
  public String clientHost() {
    if (address.isAnyLocalAddress()) {
      return address instanceof Inet6Address ? "[::1]" : "127.0.0.1";
    }
    return bracketed(address);
  }

  public boolean isLoopback() {
    return address.isLoopbackAddress();
  }

  private static String bracketed(InetAddress address) {
    String literal = usualForm(address);
    int zone = literal.indexOf('%');
    if (zone >= 0) {
      literal = literal.substring(0, zone);
    }
    return address instanceof Inet6Address ? "[" + literal + "]" : literal;
  }

  /** IPv6 with its longest run of zero groups as {@code ::} (RFC 5952), as people write it. */
  private static String usualForm(InetAddress address) {
    String literal = address.getHostAddress();
    if (!(address instanceof Inet6Address)) {
      return literal;
    }
    int zone = literal.indexOf('%');
    String suffix = zone >= 0 ? literal.substring(zone) : "";
    String[] groups = (zone >= 0 ? literal.substring(0, zone) : literal).split(":");
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < groups.length; ) {
      int j = i;
      while (j < groups.length && groups[j].equals("0")) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = j == i ? i + 1 : j;
    }
    if (bestStart < 0) {
      return literal;
    }
    String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
    String tail =
        String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
    return head + "::" + tail + suffix;
  }

  @Override
  public String toString() {
    return literal();
  }
}
