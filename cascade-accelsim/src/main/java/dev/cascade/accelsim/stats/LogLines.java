package dev.cascade.accelsim.stats;

import static dev.cascade.accelsim.stats.Bytes.ascii;
import static dev.cascade.accelsim.stats.Bytes.decodeTrimmed;
import static dev.cascade.accelsim.stats.Bytes.indexOf;
import static dev.cascade.accelsim.stats.Bytes.lastIndexOf;
import static dev.cascade.accelsim.stats.Bytes.skipBlanks;
import static dev.cascade.accelsim.stats.Bytes.startsWith;

/**
 * What each complete line of an Accel-Sim log means (DESIGN.md section 13), and the state the lines
 * build up: the kernel launched last, the open {@link StatsBlock}, and how the log has ended so
 * far. Tells the listener as each line is understood; skips every line it does not know.
 */
final class LogLines {

  private static final int MAX_REASON_CHARS = 500;

  private static final byte[] KERNEL_NAME = ascii("kernel_name");
  private static final byte[] LAUNCHING_KERNEL = ascii("launching kernel name:");
  private static final byte[] LAUNCHING_MEMCPY = ascii("launching memcpy command");
  private static final byte[] UID = ascii(" uid:");
  private static final byte[] GPGPU_SIM = ascii("GPGPU-Sim");
  private static final byte[] EXIT_DETECTED = ascii("GPGPU-Sim: *** exit detected");
  private static final byte[] BREAK_DUE = ascii("GPGPU-Sim: ** break due to reaching the maximum");
  private static final byte[] DEADLOCK = ascii("ERROR ** deadlock detected");
  private static final byte[] UNSUPPORTED_BINARY = ascii("unsupported binary version");
  private static final byte[] ACCEL_SIM = ascii("Accel-Sim");
  private static final byte[] STARS_GPGPU_SIM = ascii("*** GPGPU-Sim");
  private static final byte[] BUILD = ascii("[build");

  private final StatsListener listener;
  private final StatsBlock block = new StatsBlock();
  private String launchedName;
  private long launchedUid;
  private int kernelsFinished;
  private LogOutcome outcome = LogOutcome.INCOMPLETE;

  LogLines(StatsListener listener) {
    this.listener = listener;
  }

  LogOutcome outcome() {
    return outcome;
  }

  int kernelsFinished() {
    return kernelsFinished;
  }

  /** The log has ended: closes an open block and reports an incomplete log as such. */
  void end() {
    closeBlock();
    if (outcome.state() == LogOutcome.State.INCOMPLETE) {
      listener.onEnd(outcome);
    }
  }

  /** One line, {@code b[start, end)} without its newline. */
  void line(byte[] b, int start, int end) {
    if (end > start && b[end - 1] == '\r') {
      end--;
    }
    int p = skipBlanks(b, start, end);
    if (p == end) {
      return;
    }
    switch (b[p]) {
      case 'k' -> {
        if (kernelNameLine(b, p, end)) {
          return;
        }
      }
      case 'l' -> {
        if (launchLine(b, p, end)) {
          return;
        }
      }
      case 'G' -> {
        if (simulatorLine(b, p, end)) {
          return;
        }
      }
      case 'E' -> {
        if (failureLine(DEADLOCK, b, p, end)) {
          return;
        }
      }
      case 'u' -> {
        if (failureLine(UNSUPPORTED_BINARY, b, p, end)) {
          return;
        }
      }
      case 'A' -> {
        if (!block.isOpen()
            && startsWith(b, p, end, ACCEL_SIM)
            && buildLine(BuildString.Component.ACCEL_SIM, b, p, end)) {
          return;
        }
      }
      case '*' -> {
        if (!block.isOpen()
            && startsWith(b, p, end, STARS_GPGPU_SIM)
            && buildLine(BuildString.Component.GPGPU_SIM, b, p, end)) {
          return;
        }
      }
      default -> {}
    }
    if (block.isOpen() && block.statLine(b, p, end)) {
      closeBlock();
    }
  }

  /** {@code kernel_name = NAME}: a statistics block starts. */
  private boolean kernelNameLine(byte[] b, int p, int end) {
    if (!startsWith(b, p, end, KERNEL_NAME)) {
      return false;
    }
    int q = skipBlanks(b, p + KERNEL_NAME.length, end);
    if (q == end || b[q] != '=') {
      return false;
    }
    closeBlock();
    block.open(decodeTrimmed(b, q + 1, end));
    return true;
  }

  /** {@code launching kernel name: ...} or {@code launching memcpy command : ...}. */
  private boolean launchLine(byte[] b, int p, int end) {
    if (startsWith(b, p, end, LAUNCHING_KERNEL)) {
      closeBlock();
      int s = p + LAUNCHING_KERNEL.length;
      int uidAt = lastIndexOf(b, s, end, UID);
      String name = decodeTrimmed(b, s, uidAt < 0 ? end : uidAt);
      long uid =
          uidAt < 0 ? 0 : NumberScanner.digits(b, skipBlanks(b, uidAt + UID.length, end), end);
      launchedName = name.isEmpty() ? StatsBlock.UNNAMED : name;
      launchedUid = uid;
      listener.onKernelLaunched(launchedName, uid);
      return true;
    }
    if (startsWith(b, p, end, LAUNCHING_MEMCPY)) {
      closeBlock();
      int s = skipBlanks(b, p + LAUNCHING_MEMCPY.length, end);
      if (s < end && b[s] == ':') {
        memcpy(b, skipBlanks(b, s + 1, end), end);
      }
      return true;
    }
    return false;
  }

  /** {@code MemcpyHtoD,0x00007f73bee00000,4000}; skipped when malformed. */
  private void memcpy(byte[] b, int start, int end) {
    int firstComma = indexOf(b, start, end, (byte) ',');
    if (firstComma < 0) {
      return;
    }
    int secondComma = indexOf(b, firstComma + 1, end, (byte) ',');
    if (secondComma < 0) {
      return;
    }
    String kind = decodeTrimmed(b, start, firstComma);
    String address = decodeTrimmed(b, firstComma + 1, secondComma);
    String bytes = decodeTrimmed(b, secondComma + 1, end);
    if (address.startsWith("0x") || address.startsWith("0X")) {
      address = address.substring(2);
    }
    try {
      long parsedAddress = Long.parseUnsignedLong(address, 16);
      long parsedBytes = Long.parseLong(bytes);
      if (parsedBytes >= 0) {
        listener.onMemcpy(new MemcpyCommand(kind, parsedAddress, parsedBytes));
      }
    } catch (NumberFormatException malformed) {
      // not a memcpy line we understand: skipped, like any other unknown line
    }
  }

  /** Lines starting with {@code GPGPU-Sim}: exit, limit and deadlock. */
  private boolean simulatorLine(byte[] b, int p, int end) {
    if (!startsWith(b, p, end, GPGPU_SIM)) {
      return false;
    }
    if (startsWith(b, p, end, EXIT_DETECTED)) {
      closeBlock();
      if (outcome.state().compareTo(LogOutcome.State.COMPLETE) < 0) {
        outcome = LogOutcome.COMPLETE;
        listener.onEnd(outcome);
      }
      return true;
    }
    if (startsWith(b, p, end, BREAK_DUE)) {
      closeBlock();
      advance(LogOutcome.State.NOT_FINAL, b, p, end);
      return true;
    }
    if (indexOf(b, p, end, DEADLOCK) >= 0) {
      closeBlock();
      advance(LogOutcome.State.FAILED, b, p, end);
      return true;
    }
    return false;
  }

  /** A line starting with {@code prefix} means the simulation failed. */
  private boolean failureLine(byte[] prefix, byte[] b, int p, int end) {
    if (!startsWith(b, p, end, prefix)) {
      return false;
    }
    closeBlock();
    advance(LogOutcome.State.FAILED, b, p, end);
    return true;
  }

  /** Moves the outcome on to {@code state}, with the line as its reason, unless it is past it. */
  private void advance(LogOutcome.State state, byte[] b, int start, int end) {
    if (outcome.state().compareTo(state) < 0) {
      String reason = decodeTrimmed(b, start, end);
      if (reason.length() > MAX_REASON_CHARS) {
        reason = reason.substring(0, MAX_REASON_CHARS) + "...";
      }
      outcome = new LogOutcome(state, reason);
      listener.onEnd(outcome);
    }
  }

  /** {@code Accel-Sim [build X]} or {@code *** GPGPU-Sim Simulator Version V [build X] ***}. */
  private boolean buildLine(BuildString.Component component, byte[] b, int p, int end) {
    int at = indexOf(b, p, end, BUILD);
    if (at < 0) {
      return false;
    }
    int s = at + BUILD.length;
    int close = indexOf(b, s, end, (byte) ']');
    String build = decodeTrimmed(b, s, close < 0 ? end : close);
    String version = BuildString.versionIn(decodeTrimmed(b, p, at));
    listener.onBuild(new BuildString(component, build, decodeTrimmed(b, p, end), version));
    return true;
  }

  /** Ends the open block, if any, and reports the kernel. */
  private void closeBlock() {
    KernelStats kernel = block.close(launchedName, launchedUid);
    if (kernel != null) {
      kernelsFinished++;
      listener.onKernelFinished(kernel);
    }
  }
}
