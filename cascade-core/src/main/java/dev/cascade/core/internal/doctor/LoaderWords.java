package dev.cascade.core.internal.doctor;

import dev.cascade.core.SimCommands;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the dynamic loader says when a simulator cannot start, and what to do about it: the loader's
 * own line is kept, the fix is said in words.
 */
final class LoaderWords {

  private static final Pattern CANNOT_LOAD =
      Pattern.compile("error while loading shared libraries: ([^:]+):");

  /** A loader failure found in a simulator's output: its own line, and the fix. */
  record Finding(String line, String fix) {}

  private LoaderWords() {}

  /** The first loader failure in {@code lines}, if any. */
  static Optional<Finding> find(List<String> lines, Path accelSimDir, String libraryPathInWords) {
    for (String line : lines) {
      Matcher cannotLoad = CANNOT_LOAD.matcher(line);
      if (cannotLoad.find()) {
        return Optional.of(
            new Finding(line.strip(), missingLibraryFix(cannotLoad.group(1).strip(), accelSimDir)));
      }
      if (line.contains("symbol lookup error")) {
        return Optional.of(
            new Finding(
                line.strip(),
                "a library the loader found first is not the one accel-sim.out was built against"
                    + " (most often another libcudart.so on LD_LIBRARY_PATH); "
                    + libraryPathInWords
                    + ": rebuild Accel-Sim in a shell where setup_environment.sh ran (source"
                    + " gpu-simulator/setup_environment.sh && make -j -C gpu-simulator), or take"
                    + " the other library's folder out of LD_LIBRARY_PATH before starting"
                    + " Cascade"));
      }
    }
    return Optional.empty();
  }

  /** What to do when the loader cannot find {@code library}. */
  static String missingLibraryFix(String library, Path accelSimDir) {
    Path libraries = accelSimDir.resolve(SimCommands.ACCELSIM_LIBRARIES);
    if (library.startsWith("libcudart")) {
      return library
          + " is GPGPU-Sim's own CUDA runtime, built into "
          + libraries
          + "/<gcc>/<cuda>/release, which sims put first on LD_LIBRARY_PATH: run Accel-Sim's"
          + " setup_environment and build (cd "
          + accelSimDir
          + " && source gpu-simulator/setup_environment.sh && make -j -C gpu-simulator), then"
          + " run cascade doctor again";
    }
    return library
        + " is not in the system's library folders nor on the LD_LIBRARY_PATH sims get: install"
        + " it, or add the folder holding it to LD_LIBRARY_PATH before starting Cascade (sims"
        + " inherit it after Accel-Sim's own folders; CUDA's libraries are in"
        + " $CUDA_INSTALL_PATH/lib64)";
  }
}
