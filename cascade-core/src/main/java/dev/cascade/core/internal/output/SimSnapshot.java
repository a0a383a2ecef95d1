package dev.cascade.core.internal.output;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Renders a sim as the API shows it, for the data of a {@code sim} event. Called inside the write
 * transaction that changed the sim, on its connection, so it sees the change; it must not start a
 * write of its own or call back into {@link SimOutput}.
 */
@FunctionalInterface
public interface SimSnapshot {

  /** The sim as a JSON object. */
  String json(Connection connection, String simId) throws SQLException;
}
