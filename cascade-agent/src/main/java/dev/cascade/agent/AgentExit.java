package dev.cascade.agent;

/** The sim agent's exit codes: what happened, for whoever started it. */
final class AgentExit {

  /** The simulator succeeded and the app has its whole output and final state. */
  public static final int SUCCEEDED = 0;

  /** The simulator failed (exit code, or a failure line in its output); the app knows. */
  public static final int FAILED = 1;

  /** The agent was started wrongly: an unknown option, no command, a missing variable. */
  public static final int USAGE = 2;

  /** The sim was cancelled ({@code cancel: true}) or the agent got SIGTERM. */
  public static final int CANCELLED = 3;

  /**
   * The app did not answer for the give-up time (10 min): the simulator was stopped if it still
   * ran, and the spool folder keeps every chunk.
   */
  public static final int GAVE_UP = 4;

  /**
   * The app refused the sim (a wrong token, an unknown sim: HTTP 4xx other than 408, 425, 429): the
   * simulator was stopped and the spool folder keeps every chunk.
   */
  public static final int REJECTED = 5;

  private AgentExit() {}
}
