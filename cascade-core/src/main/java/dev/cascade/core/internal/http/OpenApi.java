package dev.cascade.core.internal.http;

import static dev.cascade.core.internal.http.OpenApiJson.map;

import dev.cascade.agent.SimContract;
import dev.cascade.core.internal.AppEnvironment;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API's own OpenAPI 3 description, written by hand (in code, so it cannot drift from the JSON
 * it describes without a test noticing: every route Javalin has is in it, and nothing else). The
 * routes are in {@link OpenApiPaths}, the component schemas in {@link ResourceSchemas} and {@link
 * ReportSchemas}.
 */
final class OpenApi {

  private OpenApi() {}

  /** The document, as a JSON-ready map. */
  static Map<String, Object> document() {
    Map<String, Object> schemas = new LinkedHashMap<>();
    ResourceSchemas.addTo(schemas);
    ReportSchemas.addTo(schemas);
    ComparisonSchemas.addTo(schemas);
    CompareSchemas.addTo(schemas);
    UserSchemas.addTo(schemas);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.0.3");
    doc.put(
        "info",
        map(
            "title", "Cascade API",
            "version", "1",
            "description",
                "Run captured Accel-Sim GPU traces on other GPU configs. User endpoints take"
                    + " \"Authorization: Bearer <token>\" when the server has a token: the"
                    + " server's own ($CASCADE_TOKEN, the local admin) or a user's (cascade users"
                    + " add), whose role (viewer, submitter, admin; x-cascade-role on each"
                    + " operation) decides what it may do: 401 without a valid token, 403 without"
                    + " the role. Sim endpoints take the sim's own token. JSON is snake_case."
                    + " Every error is {\"error\": {\"code\", \"message\", \"field\"}}."));
    doc.put("paths", OpenApiPaths.all());
    doc.put(
        "components",
        map(
            "securitySchemes",
            map(
                OpenApiPaths.USER,
                bearer(
                    AppEnvironment.TOKEN
                        + " (the local admin) or a user's token; not needed when the server has"
                        + " none"),
                OpenApiPaths.SIM,
                bearer(SimContract.SIM_TOKEN + ", valid for its own sim only")),
            "schemas",
            schemas));
    return doc;
  }

  private static Map<String, Object> bearer(String description) {
    return map("type", "http", "scheme", "bearer", "description", description);
  }
}
