package dev.cascade.cli;

import dev.cascade.client.CascadeClient;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Trace;
import java.io.IOException;
import java.util.Optional;

/**
 * Trace states from a running Cascade, through its client: empty while Cascade has not seen the
 * trace. A refused token and an unreachable server are their own exceptions: waiting more will not
 * help.
 */
final class ServerTraceStatus implements TraceStatus.Source {

  private final CascadeClient client;
  private final boolean hasToken;

  ServerTraceStatus(CascadeClient client, boolean hasToken) {
    this.client = client;
    this.hasToken = hasToken;
  }

  @Override
  public Optional<TraceStatus> find(String id) throws IOException {
    Optional<Trace> trace;
    try {
      trace = client.traces().find(id);
    } catch (CascadeException e) {
      if (e.code() == ErrorCode.UNAUTHORIZED || e.code() == ErrorCode.FORBIDDEN) {
        throw new TokenRefusedException(
            "Cascade at "
                + describe()
                + " answered "
                + e.code().httpStatus()
                + (hasToken
                    ? ": it refused the token; set CASCADE_TOKEN to the server's token"
                    : ": it needs a token; set CASCADE_TOKEN to the server's token")
                + " (or pass --no-wait)");
      }
      if (e.code() == ErrorCode.UNAVAILABLE) {
        throw new UnreachableException(e.getMessage());
      }
      throw new IOException(e.getMessage(), e);
    }
    return trace.map(
        t ->
            new TraceStatus(
                t.state().wireName(), t.reason(), t.kernelCount(), t.updatedAt().toString()));
  }

  @Override
  public String describe() {
    return client.url();
  }

  /** The server wants a token, or another one: waiting more will not help. */
  static final class TokenRefusedException extends IOException {
    TokenRefusedException(String message) {
      super(message);
    }
  }

  /** No answer from the server; the message names it and says what to do. */
  static final class UnreachableException extends IOException {
    UnreachableException(String message) {
      super(message);
    }
  }
}
