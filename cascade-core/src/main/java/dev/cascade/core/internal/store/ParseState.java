package dev.cascade.core.internal.store;

import dev.cascade.core.SimState;

/**
 * What the output parse needs to know of a sim when it first sees it ({@link
 * SimRepository#parseState}).
 *
 * @param launchedAt when the sim was launched, where its first kernel's wall time counts from; null
 *     before
 */
public record ParseState(
    String runId,
    String gpuConfig,
    SimState state,
    ParseProgress progress,
    java.time.Instant launchedAt) {}
