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
 * value.
 */
package dev.cascade.accelsim.stats;
