package dev.cascade.agent;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.util.Locale;
import java.util.Optional;

/**
 * Makes this process undumpable ({@code prctl(PR_SET_DUMPABLE, 0)}, Linux): then no other process
 * of the same user, root's aside, may read its memory ({@code /proc/<pid>/mem}), its environment or
 * its open files. The agent holds its sim's token in its heap; without this, the simulator of
 * another sim run as the same user could read it there (docs/operations.md, Threat model). A sim
 * run as a user of its own ({@code --sim-user}) cannot, undumpable or not.
 *
 * <p>{@code prctl} is called through the foreign-function API, by reflection: the API is final from
 * Java 22, and in Java 21 a preview whose types code compiled for 21 cannot name. Java 21 runs the
 * same calls without {@code --enable-preview} (its {@code Linker} checks native access, not
 * previews, and reflection needs no class file marked as preview). Whatever fails, the agent runs
 * on: {@link #apply} says why in its result.
 */
final class Undumpable {

  private static final int PR_GET_DUMPABLE = 3;
  private static final int PR_SET_DUMPABLE = 4;

  private Undumpable() {}

  /**
   * What {@link #apply} did.
   *
   * @param done true when the process is now undumpable
   * @param reason why it is not, in words; "done" when it is
   */
  record Result(boolean done, String reason) {

    static final Result DONE = new Result(true, "done");

    static Result notDone(String reason) {
      return new Result(false, reason);
    }

    /** The agent's one line on stderr when it is not done. */
    String warning() {
      return "could not make this process unreadable to other processes of the same user ("
          + reason
          + "): a simulator of another sim running as this user could read this sim's token in"
          + " the agent's memory; run sims as a user of their own (cascade serve --sim-user USER)"
          + " to keep them apart";
    }
  }

  /** Makes this process undumpable, on Linux; says why not elsewhere or when a step fails. */
  static Result apply() {
    return apply(System.getProperty("os.name", ""));
  }

  static Result apply(String osName) {
    if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return Result.notDone("only Linux has prctl, and this is " + osName);
    }
    try {
      Optional<MethodHandle> prctl = prctl();
      if (prctl.isEmpty()) {
        return Result.notDone("the C library has no prctl");
      }
      int set = call(prctl.get(), PR_SET_DUMPABLE, 0);
      if (set != 0) {
        return Result.notDone("prctl(PR_SET_DUMPABLE, 0) returned " + set);
      }
      int dumpable = call(prctl.get(), PR_GET_DUMPABLE, 0);
      if (dumpable != 0) {
        return Result.notDone("prctl(PR_GET_DUMPABLE) still says " + dumpable + " after it");
      }
      return Result.DONE;
    } catch (ClassNotFoundException e) {
      return Result.notDone(
          "Java "
              + Runtime.version().feature()
              + " has no foreign-function API to call prctl with; Java 21 and later have");
    } catch (InvocationTargetException e) {
      return failed(e.getCause() == null ? e : e.getCause());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return failed(e);
    }
  }

  private static Result failed(Throwable e) {
    if (e instanceof IllegalCallerException) {
      return Result.notDone(
          "native access is not allowed to the agent: run its JVM with"
              + " --enable-native-access=ALL-UNNAMED");
    }
    return Result.notDone("calling prctl failed: " + e.getMessage());
  }

  /**
   * {@code int prctl(int option, ...)}, with four {@code long} arguments after the option: {@code
   * Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, JAVA_INT,
   * JAVA_LONG x 4), Linker.Option.firstVariadicArg(1))}, spelled by reflection.
   */
  private static Optional<MethodHandle> prctl() throws ReflectiveOperationException {
    Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
    Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> lookupType = Class.forName("java.lang.foreign.SymbolLookup");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> valueLayoutType = Class.forName("java.lang.foreign.ValueLayout");
    Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");

    Object linker = linkerType.getMethod("nativeLinker").invoke(null);
    Object lookup = linkerType.getMethod("defaultLookup").invoke(linker);
    Optional<?> symbol =
        (Optional<?>) lookupType.getMethod("find", String.class).invoke(lookup, "prctl");
    if (symbol.isEmpty()) {
      return Optional.empty();
    }
    Object javaInt = valueLayoutType.getField("JAVA_INT").get(null);
    Object javaLong = valueLayoutType.getField("JAVA_LONG").get(null);
    Object arguments = Array.newInstance(layoutType, 5);
    Array.set(arguments, 0, javaInt);
    for (int i = 1; i < 5; i++) {
      Array.set(arguments, i, javaLong);
    }
    Object descriptor =
        descriptorType
            .getMethod("of", layoutType, arguments.getClass())
            .invoke(null, javaInt, arguments);
    // prctl is variadic after its option: say so, as the C calling convention may differ.
    Object options = Array.newInstance(optionType, 1);
    Array.set(options, 0, optionType.getMethod("firstVariadicArg", int.class).invoke(null, 1));
    Object handle =
        linkerType
            .getMethod("downcallHandle", segmentType, descriptorType, options.getClass())
            .invoke(linker, symbol.get(), descriptor, options);
    return Optional.of((MethodHandle) handle);
  }

  private static int call(MethodHandle prctl, int option, long argument)
      throws InvocationTargetException {
    try {
      return (Integer) prctl.invokeWithArguments(option, argument, 0L, 0L, 0L);
    } catch (Throwable e) {
      throw new InvocationTargetException(e);
    }
  }
}
