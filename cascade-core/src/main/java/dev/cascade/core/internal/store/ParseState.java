package dev.cascade.core.internal.store;

import dev.cascade.core.SimState;

/**
 * What the output parse needs to know of a sim when it first sees it ({@link
 * SimRepository#parseState}).
 */
public record ParseState(String runId, String gpuConfig, SimState state, ParseProgress progress) {}
