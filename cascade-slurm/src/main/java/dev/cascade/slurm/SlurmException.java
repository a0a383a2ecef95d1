package dev.cascade.slurm;

/** A Slurm command failed; the message says which and what it printed. */
class SlurmException extends Exception {

  SlurmException(String message, Throwable cause) {
    super(message, cause);
  }
}
