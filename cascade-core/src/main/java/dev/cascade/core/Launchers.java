package dev.cascade.core;

import dev.cascade.core.spi.Launcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The launchers on the class path, found with {@link ServiceLoader}, and the one choice users make
 * among them: by name. When the chosen one cannot be used, the error lists every launcher found and
 * why each can or cannot run here.
 */
public final class Launchers {

  private Launchers() {}

  /** Every launcher on the class path, in discovery order. */
  public static List<Launcher> discover() {
    return discover(Thread.currentThread().getContextClassLoader());
  }

  static List<Launcher> discover(ClassLoader classLoader) {
    List<Launcher> found = new ArrayList<>();
    ServiceLoader.load(Launcher.class, classLoader).forEach(found::add);
    return found;
  }

  /** The launcher called {@code name}; an error listing every candidate when it can't be used. */
  public static Launcher byName(String name) {
    return choose(name, discover());
  }

  static Launcher choose(String name, List<Launcher> candidates) {
    for (Launcher candidate : candidates) {
      if (candidate.name().equals(name)) {
        Optional<String> reason = candidate.unavailableReason();
        if (reason.isEmpty()) {
          return candidate;
        }
        throw new CascadeException(
            ErrorCode.UNAVAILABLE,
            "the \""
                + name
                + "\" launcher cannot be used: "
                + reason.get()
                + "\n"
                + describe(candidates),
            "launcher");
      }
    }
    throw new CascadeException(
        ErrorCode.INVALID,
        "no launcher called \"" + name + "\"\n" + describe(candidates),
        "launcher");
  }

  private static String describe(List<Launcher> candidates) {
    if (candidates.isEmpty()) {
      return "no launchers were found on the class path";
    }
    StringBuilder text = new StringBuilder("launchers found:");
    for (Launcher candidate : candidates) {
      text.append("\n  ")
          .append(candidate.name())
          .append(": ")
          .append(candidate.unavailableReason().map(r -> "unavailable, " + r).orElse("available"));
    }
    return text.toString();
  }
}
