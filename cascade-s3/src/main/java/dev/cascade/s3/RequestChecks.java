package dev.cascade.s3;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.lang.reflect.Field;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.shaded.org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.gaul.shaded.org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.gaul.shaded.org.eclipse.jetty.server.Handler;
import org.gaul.shaded.org.eclipse.jetty.server.Server;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The checks made on a request before s3proxy's S3 front end sees it, for what that front end
 * answers wrongly and no blob store wrapper can catch, because it happens before the store is
 * called or the store never sees it:
 *
 * <ul>
 *   <li>An {@code x-amz-content-sha256} that is a SHA-256 is checked against the body as it is
 *       read, whatever signed the request (s3proxy checks it only on a Signature V4 header, so a
 *       V2-signed or presigned request stored a body that did not match): a mismatch is S3's 400
 *       {@code XAmzContentSHA256Mismatch} and nothing is stored. A value that is neither a SHA-256
 *       nor one of S3's payload tokens ({@code UNSIGNED-PAYLOAD}, {@code STREAMING-...}) is S3's
 *       400 {@code InvalidArgument}.
 *   <li>An access control policy sent to {@code ?acl} must be one S3 would take: an {@code Owner}
 *       with an {@code ID}, and grants that each name a grantee and a permission. Otherwise it is
 *       S3's 400 {@code MalformedACLError} and nothing changes (s3proxy failed with a 500 on a
 *       policy without an owner).
 *   <li>A key s3proxy keeps for its multipart uploads is refused in Cascade's words, not the
 *       library's.
 * </ul>
 */
final class RequestChecks implements Filter {

  static final String CONTENT_SHA256 = "x-amz-content-sha256";

  /** The names s3proxy gives its multipart-upload records, which no request may use. */
  static final String RESERVED_KEY_PREFIX = ".s3proxy-mpu-stub-";

  /** S3 takes at most 100 grants; a policy of them is a few tens of kilobytes. */
  static final int MAX_ACL_BYTES = 256 << 10;

  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

  private static final Set<String> PAYLOAD_TOKENS =
      Set.of(
          "UNSIGNED-PAYLOAD",
          "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
          "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
          "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER",
          "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD",
          "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER");

  private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";

  /**
   * Puts the checks in front of {@code proxy}'s S3 handler; call before it starts. s3proxy's
   * builder offers no hook for this, so its Jetty server is taken from the field that holds it.
   *
   * @throws IllegalStateException when this s3proxy is not built as expected
   */
  static void installIn(S3Proxy proxy) {
    Handler handler;
    try {
      Field field = S3Proxy.class.getDeclaredField("server");
      field.setAccessible(true);
      handler = ((Server) field.get(proxy)).getHandler();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "cannot put the S3 endpoint's request checks in front of s3proxy, whose Jetty server is"
              + " no longer where this version expects it: "
              + e,
          e);
    }
    while (!(handler instanceof ServletContextHandler) && handler instanceof Handler.Wrapper w) {
      handler = w.getHandler();
    }
    if (!(handler instanceof ServletContextHandler context)) {
      throw new IllegalStateException(
          "cannot put the S3 endpoint's request checks in front of s3proxy: its server has no"
              + " servlet context; found "
              + handler);
    }
    context.addFilter(
        new FilterHolder(new RequestChecks()), "/*", EnumSet.of(DispatcherType.REQUEST));
  }

  @Override
  public void doFilter(
      ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) servletRequest;
    HttpServletResponse response = (HttpServletResponse) servletResponse;
    try {
      chain.doFilter(checked(request), response);
    } catch (Refusal refusal) {
      discard(request);
      refuse(response, refusal.status, refusal.code, refusal.getMessage());
    }
  }

  private static HttpServletRequest checked(HttpServletRequest request) throws IOException {
    Optional<String> reserved =
        reservedKey(keyOf(request)).or(() -> reservedKey(copySourceKey(request)));
    if (reserved.isPresent()) {
      throw new Refusal(
          400,
          "InvalidArgument",
          "The key \""
              + reserved.get()
              + "\" is reserved for this endpoint's own records of multipart uploads; choose a key"
              + " that does not begin with \".s3proxy-mpu-stub-\".");
    }
    HttpServletRequest checked = request;
    String contentSha256 = request.getHeader(CONTENT_SHA256);
    if (contentSha256 != null) {
      if (SHA256_HEX.matcher(contentSha256).matches()) {
        checked = new WithBody(request, new HashChecked(request.getInputStream(), contentSha256));
      } else if (!PAYLOAD_TOKENS.contains(contentSha256)) {
        throw new Refusal(
            400,
            "InvalidArgument",
            "x-amz-content-sha256 is \""
                + contentSha256
                + "\": it must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER,"
                + " STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER,"
                + " STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD,"
                + " STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER or the SHA-256 of the body in"
                + " hex.");
      }
    }
    if (request.getMethod().equals("PUT") && hasParameter(request.getQueryString(), "acl")) {
      checked = withCheckedAcl(checked);
    }
    return checked;
  }

  /** The request with its access control policy read, checked, and given back as its body. */
  private static HttpServletRequest withCheckedAcl(HttpServletRequest request) throws IOException {
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(MAX_ACL_BYTES + 1);
      in.transferTo(OutputStream.nullOutputStream()); // to the end, where its hash is checked
    } catch (IOException e) {
      if (e.getCause() instanceof S3Exception mismatch) {
        throw new Refusal(
            mismatch.statusCode(),
            mismatch.awsErrorDetails().errorCode(),
            mismatch.awsErrorDetails().errorMessage());
      }
      throw e;
    }
    if (body.length > MAX_ACL_BYTES) {
      throw malformedAcl("it is over " + (MAX_ACL_BYTES >> 10) + " KiB");
    }
    if (body.length > 0) {
      aclProblem(body)
          .ifPresent(
              problem -> {
                throw malformedAcl(problem);
              });
    }
    return new WithBody(request, new ByteArrayInputStream(body));
  }

  private static Refusal malformedAcl(String problem) {
    return new Refusal(
        400,
        "MalformedACLError",
        "The ACL you provided was not well formed: "
            + problem
            + ". Send an AccessControlPolicy with an Owner that has an ID, and an"
            + " AccessControlList whose every Grant has a Grantee and a Permission, or a canned ACL"
            + " in x-amz-acl.");
  }

  /** What is wrong with the access control policy {@code xml}, when something is. */
  static Optional<String> aclProblem(byte[] xml) {
    Document document;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setExpandEntityReferences(false);
      var builder = factory.newDocumentBuilder();
      builder.setErrorHandler(new DefaultHandler()); // fails on errors, prints nothing
      document = builder.parse(new ByteArrayInputStream(xml));
    } catch (SAXException | IOException e) {
      return Optional.of("it is not XML");
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the JDK's XML parser cannot be set up safely: " + e, e);
    }
    Element policy = document.getDocumentElement();
    if (!"AccessControlPolicy".equals(policy.getLocalName())) {
      return Optional.of(
          "its root element is <" + policy.getLocalName() + ">, not <AccessControlPolicy>");
    }
    Optional<Element> owner = child(policy, "Owner");
    if (owner.isEmpty()) {
      return Optional.of("it has no Owner");
    }
    if (text(owner.get(), "ID").isEmpty()) {
      return Optional.of("its Owner has no ID");
    }
    Optional<Element> list = child(policy, "AccessControlList");
    if (list.isEmpty()) {
      return Optional.empty();
    }
    int number = 0;
    for (Node node = list.get().getFirstChild(); node != null; node = node.getNextSibling()) {
      if (!(node instanceof Element grant) || !"Grant".equals(grant.getLocalName())) {
        continue;
      }
      number++;
      Optional<String> problem = grantProblem(grant);
      if (problem.isPresent()) {
        return Optional.of("its grant " + number + " " + problem.get());
      }
    }
    return Optional.empty();
  }

  private static Optional<String> grantProblem(Element grant) {
    Optional<Element> grantee = child(grant, "Grantee");
    if (grantee.isEmpty()) {
      return Optional.of("has no Grantee");
    }
    if (text(grant, "Permission").isEmpty()) {
      return Optional.of("has no Permission");
    }
    String type = grantee.get().getAttributeNS(XSI, "type");
    String needs =
        switch (type) {
          case "CanonicalUser" -> "ID";
          case "Group" -> "URI";
          case "AmazonCustomerByEmail" -> "EmailAddress";
          default -> null;
        };
    if (needs == null) {
      return Optional.of(
          "has a Grantee whose xsi:type is \""
              + type
              + "\", not CanonicalUser, Group or AmazonCustomerByEmail");
    }
    if (text(grantee.get(), needs).isEmpty()) {
      return Optional.of("has a " + type + " Grantee with no " + needs);
    }
    return Optional.empty();
  }

  private static Optional<Element> child(Element parent, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && name.equals(element.getLocalName())) {
        return Optional.of(element);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> text(Element parent, String name) {
    return child(parent, name).map(e -> e.getTextContent().strip()).filter(t -> !t.isEmpty());
  }

  /** The key of a path-style request ({@code /bucket/key}), decoded; null for a bucket's. */
  private static String keyOf(HttpServletRequest request) {
    String path = request.getRequestURI();
    if (path == null) {
      return null;
    }
    String[] parts = path.split("/", 3);
    return parts.length < 3 ? null : decoded(parts[2]);
  }

  /** The key that {@code x-amz-copy-source} ({@code [/]bucket/key[?versionId=...]}) names. */
  private static String copySourceKey(HttpServletRequest request) {
    String source = request.getHeader("x-amz-copy-source");
    if (source == null) {
      return null;
    }
    int query = source.indexOf('?');
    String path = query < 0 ? source : source.substring(0, query);
    path = path.startsWith("/") ? path.substring(1) : path;
    int slash = path.indexOf('/');
    return slash < 0 ? null : decoded(path.substring(slash + 1));
  }

  private static String decoded(String encoded) {
    try {
      return URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notEncoded) {
      return encoded;
    }
  }

  private static Optional<String> reservedKey(String key) {
    return key != null && key.startsWith(RESERVED_KEY_PREFIX) ? Optional.of(key) : Optional.empty();
  }

  private static boolean hasParameter(String query, String name) {
    if (query == null) {
      return false;
    }
    return Arrays.stream(query.split("&"))
        .anyMatch(pair -> pair.equals(name) || pair.startsWith(name + "="));
  }

  /**
   * Reads what is left of the body before answering: a client that is still sending would otherwise
   * see its write fail ("Error writing request body") instead of the answer.
   */
  private static void discard(HttpServletRequest request) {
    try {
      request.getInputStream().transferTo(OutputStream.nullOutputStream());
    } catch (IOException | IllegalStateException clientGoneOrAlreadyRead) {
      // The answer is the same.
    }
  }

  /** An S3 error document, as s3proxy would write one. */
  private static void refuse(HttpServletResponse response, int status, String code, String message)
      throws IOException {
    if (response.isCommitted()) {
      return;
    }
    response.setStatus(status);
    response.setContentType("application/xml");
    response.setCharacterEncoding("UTF-8");
    try (Writer writer = response.getWriter()) {
      writer.write(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
              + escaped(code)
              + "</Code><Message>"
              + escaped(message)
              + "</Message><RequestId>"
              + HexFormat.of().withUpperCase().toHexDigits(ThreadLocalRandom.current().nextLong())
              + "</RequestId></Error>");
    }
  }

  private static String escaped(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /** An answer given here instead of s3proxy's. */
  private static final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String code;

    Refusal(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  /**
   * A body that fails its last read with S3's {@code XAmzContentSHA256Mismatch} unless it hashed to
   * {@code x-amz-content-sha256}: s3proxy answers that error, and the store removes what it wrote,
   * as for any body that broke off.
   */
  static final class HashChecked extends InputStream {
    private final InputStream in;
    private final byte[] expected;
    private final MessageDigest digest;
    private boolean checked;

    HashChecked(InputStream in, String sha256Hex) {
      this.in = in;
      this.expected = HexFormat.of().parseHex(sha256Hex);
      try {
        this.digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("this JDK has no SHA-256: " + e, e);
      }
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b < 0) {
        check();
      } else {
        digest.update((byte) b);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int count = in.read(buffer, offset, length);
      if (count < 0) {
        check();
      } else {
        digest.update(buffer, offset, count);
      }
      return count;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    private void check() throws IOException {
      if (checked) {
        return;
      }
      checked = true;
      if (!MessageDigest.isEqual(expected, digest.digest())) {
        String message =
            "The provided 'x-amz-content-sha256' header does not match what was computed.";
        throw new IOException(
            message,
            S3Exception.builder()
                .statusCode(400)
                .message(message)
                .awsErrorDetails(
                    AwsErrorDetails.builder()
                        .serviceName("S3")
                        .errorCode("XAmzContentSHA256Mismatch")
                        .errorMessage(message)
                        .build())
                .build());
      }
    }
  }

  /** {@code request} with {@code body} as what it sends. */
  private static final class WithBody extends HttpServletRequestWrapper {
    private final ServletInputStream body;

    WithBody(HttpServletRequest request, InputStream body) {
      super(request);
      this.body = new BodyStream(body);
    }

    @Override
    public ServletInputStream getInputStream() {
      return body;
    }
  }

  private static final class BodyStream extends ServletInputStream {
    private final InputStream in;
    private boolean finished;

    BodyStream(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      finished = b < 0;
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int count = in.read(buffer, offset, length);
      finished = count < 0;
      return count;
    }

    @Override
    public boolean isFinished() {
      return finished;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
      throw new UnsupportedOperationException("the S3 endpoint reads bodies blocking");
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
