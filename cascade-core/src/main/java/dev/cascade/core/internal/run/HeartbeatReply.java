package dev.cascade.core.internal.run;

import java.util.List;

/**
 * The app's answer to a heartbeat.
 *
 * @param cancel true once the sim's run was cancelled: the sim should stop
 * @param missing for a final heartbeat, the chunks the app does not hold yet; the sim re-sends them
 *     and reports again. Empty when nothing is missing.
 */
public record HeartbeatReply(boolean cancel, List<Long> missing) {

  public static final HeartbeatReply CONTINUE = new HeartbeatReply(false, List.of());
  public static final HeartbeatReply CANCEL = new HeartbeatReply(true, List.of());

  public HeartbeatReply {
    missing = List.copyOf(missing);
  }
}
