package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body into memory up to a limit: a body that says (Content-Length) or turns out
 * (while reading) to be larger is refused with 413 before more of it is held.
 */
final class BoundedBody {

  private BoundedBody() {}

  /**
   * The body's bytes.
   *
   * @param what what the body is, for the message ("a JSON body", "a chunk")
   * @throws CascadeException {@code payload_too_large} above {@code limit}; {@code bad_request}
   *     when the body cannot be read (the client went away mid-body)
   */
  static byte[] read(Context ctx, int limit, String what) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > limit) {
      throw tooLarge(what, limit, declared + " bytes");
    }
    try {
      InputStream in = ctx.req().getInputStream();
      byte[] bytes = in.readNBytes(limit + 1);
      if (bytes.length > limit) {
        throw tooLarge(what, limit, "more than that");
      }
      return bytes;
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST,
          "the request body could not be read: the client stopped sending it or went away before"
              + " its end; send it again",
          null,
          e);
    }
  }

  private static CascadeException tooLarge(String what, int limit, String size) {
    return new CascadeException(
        ErrorCode.PAYLOAD_TOO_LARGE,
        what + " may be at most " + limit + " bytes; got " + size + ". Send less at a time",
        null);
  }
}
