package dev.cascade.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which access control policies {@link RequestChecks} lets through to s3proxy. */
final class RequestChecksTest {

  private static final String OWNER = "<Owner><ID>75aa57f0</ID></Owner>";

  private static Optional<String> problem(String inside) {
    String xml =
        "<AccessControlPolicy xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\""
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">"
            + inside
            + "</AccessControlPolicy>";
    return RequestChecks.aclProblem(xml.getBytes(StandardCharsets.UTF_8));
  }

  private static String grant(String grantee, String permission) {
    return "<AccessControlList><Grant>" + grantee + permission + "</Grant></AccessControlList>";
  }

  @Test
  void aPolicyWithAnOwnerAndWholeGrants_passes() {
    assertThat(
            problem(
                OWNER
                    + grant(
                        "<Grantee xsi:type=\"CanonicalUser\"><ID>75aa57f0</ID></Grantee>",
                        "<Permission>FULL_CONTROL</Permission>")))
        .isEmpty();
    assertThat(problem(OWNER)).isEmpty();
  }

  @Test
  void aPolicyWithoutAnOwnerOrItsId_isMalformed() {
    assertThat(problem("<AccessControlList/>")).contains("it has no Owner");
    assertThat(problem("<Owner><DisplayName>me</DisplayName></Owner>"))
        .contains("its Owner has no ID");
  }

  @Test
  void aGrantWithoutGranteePermissionOrTheGranteesName_isMalformed() {
    assertThat(problem(OWNER + grant("", "<Permission>READ</Permission>")))
        .contains("its grant 1 has no Grantee");
    assertThat(problem(OWNER + grant("<Grantee xsi:type=\"Group\"><URI>u</URI></Grantee>", "")))
        .contains("its grant 1 has no Permission");
    assertThat(
            problem(
                OWNER + grant("<Grantee xsi:type=\"Group\"/>", "<Permission>READ</Permission>")))
        .contains("its grant 1 has a Group Grantee with no URI");
    assertThat(problem(OWNER + grant("<Grantee/>", "<Permission>READ</Permission>")))
        .contains(
            "its grant 1 has a Grantee whose xsi:type is \"\", not CanonicalUser, Group or"
                + " AmazonCustomerByEmail");
  }

  @Test
  void notXml_orADocumentType_isMalformed() {
    assertThat(RequestChecks.aclProblem("<<".getBytes(StandardCharsets.UTF_8)))
        .contains("it is not XML");
    assertThat(
            RequestChecks.aclProblem(
                ("<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                        + "<AccessControlPolicy>&e;</AccessControlPolicy>")
                    .getBytes(StandardCharsets.UTF_8)))
        .contains("it is not XML");
  }
}
