package dev.cascade.core.internal.store;

/**
 * How far the parse of a sim's output has got, as its {@code sims} row keeps it ({@link
 * SimRepository#recordParse}).
 *
 * @param chunksParsed chunks 0 to {@code chunksParsed - 1} have been fed to the parser
 * @param latestMetrics the last kernel's headline numbers as a JSON object, or null
 * @param logOutcome how the log ended ({@code complete}, {@code failed}, ...); null while running
 */
public record ParseProgress(
    long chunksParsed,
    int kernelsDone,
    String currentKernel,
    String latestMetrics,
    String logOutcome) {}
