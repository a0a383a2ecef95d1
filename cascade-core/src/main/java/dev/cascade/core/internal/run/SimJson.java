package dev.cascade.core.internal.run;

import dev.cascade.core.Sim;
import dev.cascade.core.json.ApiJson;
import java.util.Map;

/**
 * A sim as clients see it, what {@code sim} events carry and the API returns: kept for the code
 * that stores sim events; the fields are {@link ApiJson#writeSim(Sim)}'s.
 */
public final class SimJson {

  private SimJson() {}

  public static Map<String, Object> fields(Sim sim) {
    return ApiJson.writeSim(sim);
  }

  public static String json(Sim sim) {
    return ApiJson.toJson(fields(sim));
  }
}
