/**
 * The HTTP API's wire format: how Cascade's records are written as the API's JSON and read back.
 * {@link dev.cascade.core.json.ApiJson} is the one place that knows each field; the server, the
 * Java client and the tests all use it. Field names are snake_case and stable: changing one is a
 * change of the API ({@code docs/api.md}, {@code GET /api/openapi.json}).
 */
package dev.cascade.core.json;
