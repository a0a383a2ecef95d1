/**
 * Streaming per-kernel statistics of Accel-Sim (GPGPU-Sim) simulator output.
 *
 * <p>{@link dev.cascade.accelsim.stats.KernelStatsParser} is fed the simulator's stdout in chunks
 * of any size, split anywhere, and tells a {@link dev.cascade.accelsim.stats.StatsListener} about
 * every change worth showing: build strings, memcpy commands, kernel launches, finished kernels
 * with their statistics block ({@link dev.cascade.accelsim.stats.KernelStats}) and how the log
 * ended ({@link dev.cascade.accelsim.stats.LogOutcome}). It keeps constant memory whatever the log
 * size and never fails on an unknown or malformed line. {@link
 * dev.cascade.accelsim.stats.LogSummary#read(java.nio.file.Path)} reads a whole file into one
 * value. {@link dev.cascade.accelsim.stats.StatsJson} and {@link
 * dev.cascade.accelsim.stats.StatsCsv} write the documents of {@code cascade stats --json} and
 * {@code --csv} while the parser reads, as {@link dev.cascade.accelsim.stats.StatsWriter}s.
 */
package dev.cascade.accelsim.stats;
