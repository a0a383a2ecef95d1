package dev.cascade.core;

import java.util.Objects;

/**
 * A folder in the traces folder that is not a trace, and why: its name is not a valid trace id, or
 * it is a symbolic link. Listed beside the traces (as the catalog lists configs it cannot read) so
 * that an upload under a wrong name is seen, not only logged.
 *
 * @param name the folder's name as it is on disk
 * @param reason why it is not a trace, and what to do
 */
public record SkippedFolder(String name, String reason) {

  public SkippedFolder {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reason, "reason");
  }
}
