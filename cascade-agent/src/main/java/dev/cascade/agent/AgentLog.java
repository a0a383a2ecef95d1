package dev.cascade.agent;

import java.io.PrintStream;

/** The agent's own messages, one line each, on stderr (the sim's {@code .out} file). */
final class AgentLog {

  private final PrintStream out;

  AgentLog(PrintStream out) {
    this.out = out;
  }

  void info(String message) {
    out.println("cascade sim-agent: " + message);
    out.flush();
  }
}
