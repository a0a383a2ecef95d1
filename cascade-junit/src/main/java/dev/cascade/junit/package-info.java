/**
 * Cascade experiments in JUnit 5: {@link dev.cascade.junit.CascadeExperiment} on a test class gives
 * its tests an embedded Cascade (or a running one), and {@link dev.cascade.junit.Experiment} runs a
 * trace on GPU configs and returns results to assert on ({@link dev.cascade.junit.ExperimentRun},
 * {@link dev.cascade.junit.ConfigResults}). {@link dev.cascade.junit.EnabledIfLauncherAvailable}
 * skips tests whose launcher cannot be used here. {@code docs/harness.md} shows a whole experiment.
 */
package dev.cascade.junit;
