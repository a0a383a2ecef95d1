/**
 * Runnable, tested examples of using Cascade from Java: {@link
 * dev.cascade.examples.EmbeddedRunExample} (embed Cascade, run a trace on two GPU configs, print
 * the comparison) and {@link dev.cascade.examples.WatchRunExample} (follow a run's events as a live
 * table), both on {@link dev.cascade.examples.EmbeddedCascade}. The JUnit 5 experiment example is
 * in the tests, {@code H100VsH200ExperimentIT}. The code in {@code docs/embedding.md} and {@code
 * docs/harness.md} is copied from the regions marked {@code tag::NAME[]} here, and a test checks it
 * stays the same.
 */
package dev.cascade.examples;
