/**
 * Accel-Sim traces: reading a trace folder ({@link dev.cascade.accelsim.trace.TraceInfo}, {@link
 * dev.cascade.accelsim.trace.KernelsList}, {@link dev.cascade.accelsim.trace.TraceReader}) and
 * post-processing raw NVBit traces into what Accel-Sim runs ({@link
 * dev.cascade.accelsim.trace.PostProcessor}). Plain and xz files are read streaming.
 */
package dev.cascade.accelsim.trace;
