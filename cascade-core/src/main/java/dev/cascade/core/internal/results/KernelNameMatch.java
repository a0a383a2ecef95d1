package dev.cascade.core.internal.results;

import dev.cascade.core.KernelNames;

/**
 * Whether a kernel of a sim's log (a mangled symbol) and one of a Nsight Compute CSV (usually the
 * demangled name, maybe without its parameters) are plausibly the same: only a warning hangs on it,
 * since kernels are paired by launch order.
 */
final class KernelNameMatch {

  private KernelNameMatch() {}

  static boolean sameKernel(String logName, String ncuName) {
    if (logName.equals(ncuName)) {
      return true;
    }
    if (logName.startsWith("_Z") && !KernelNames.system().canDemangle()) {
      return true; // without c++filt a symbol cannot be told from its demangled name
    }
    String readable = KernelNames.system().readable(logName);
    return core(readable).equals(core(ncuName));
  }

  /** The unqualified function name: no return type, scopes, template arguments or parameters. */
  private static String core(String name) {
    String shown = name.replace("(anonymous namespace)", "anonymous");
    int paren = shown.indexOf('(');
    if (paren > 0) {
      shown = shown.substring(0, paren);
    }
    int angle = shown.indexOf('<');
    if (angle > 0) {
      shown = shown.substring(0, angle);
    }
    int space = shown.lastIndexOf(' ');
    if (space >= 0) {
      shown = shown.substring(space + 1);
    }
    int scope = shown.lastIndexOf("::");
    return scope >= 0 ? shown.substring(scope + 2) : shown;
  }
}
