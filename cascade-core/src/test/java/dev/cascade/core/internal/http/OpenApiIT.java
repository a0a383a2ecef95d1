package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class OpenApiIT {

  @TempDir Path dataDir;
  private ApiServer server;
  private JsonNode document;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir);
    document = server.get("/api/openapi.json").json();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void document_describesExactlyTheRegisteredRoutes() {
    List<String> described = new ArrayList<>();
    document
        .get("paths")
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .fieldNames()
                    .forEachRemaining(
                        method ->
                            described.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));

    // The web UI's page and files are not part of the API.
    List<String> apiRoutes =
        server.api.routes().stream().filter(route -> !StaticFiles.ROUTES.contains(route)).toList();
    assertThat(server.api.routes()).containsAll(StaticFiles.ROUTES);
    assertThat(apiRoutes).hasSizeGreaterThanOrEqualTo(17);
    assertThat(described).containsExactlyInAnyOrderElementsOf(apiRoutes);
  }

  @Test
  void document_isOpenApi3WithEveryReferenceDefined() {
    assertThat(document.get("openapi").asText()).startsWith("3.");
    assertThat(document.get("info").get("title").asText()).isNotBlank();
    JsonNode schemas = document.get("components").get("schemas");
    List<String> refs = new ArrayList<>();
    collectRefs(document, refs);
    assertThat(refs).isNotEmpty();
    for (String ref : refs) {
      assertThat(ref).startsWith("#/components/schemas/");
      assertThat(schemas.has(ref.substring("#/components/schemas/".length()))).as(ref).isTrue();
    }
  }

  @Test
  void document_givesEveryOperationAnIdResponsesAndSecurity() {
    List<String> ids = new ArrayList<>();
    document
        .get("paths")
        .forEach(
            item ->
                item.forEach(
                    operation -> {
                      ids.add(operation.get("operationId").asText());
                      assertThat(operation.get("responses").size()).isPositive();
                      assertThat(operation.has("security")).isTrue();
                    }));
    assertThat(ids).doesNotHaveDuplicates();
    JsonNode heartbeat = document.get("paths").get("/api/sims/{id}/heartbeat").get("post");
    assertThat(heartbeat.get("security").get(0).has("simToken")).isTrue();
    JsonNode runs = document.get("paths").get("/api/runs").get("post");
    assertThat(runs.get("security").get(0).has("userToken")).isTrue();
    assertThat(runs.get("responses").has("201")).isTrue();
    assertThat(runs.get("responses").has("422")).isTrue();
  }

  private static void collectRefs(JsonNode node, List<String> refs) {
    if (node.isObject()) {
      node.properties()
          .forEach(
              field -> {
                if (field.getKey().equals("$ref")) {
                  refs.add(field.getValue().asText());
                } else {
                  collectRefs(field.getValue(), refs);
                }
              });
    } else if (node.isArray()) {
      node.forEach(child -> collectRefs(child, refs));
    }
  }
}
