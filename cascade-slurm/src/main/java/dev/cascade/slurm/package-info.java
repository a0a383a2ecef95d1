/**
 * Sims on a Slurm cluster: {@link dev.cascade.slurm.SlurmLauncher}, the {@code slurm} launcher
 * behind the core's {@link dev.cascade.core.spi.Launcher} SPI, which submits each run entry as one
 * job array and follows its tasks with {@code squeue} (and {@code sacct} when accounting is on).
 * {@code docs/slurm.md} says how to set it up.
 */
package dev.cascade.slurm;
