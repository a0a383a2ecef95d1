/**
 * Sims in Sail sandboxes ("Sailboxes"): {@link dev.cascade.sail.SailLauncher}, the {@code sail}
 * launcher, behind the core's {@link dev.cascade.core.spi.Launcher} SPI, and {@link
 * dev.cascade.sail.SailClient}, the few Sail calls it makes, with {@link
 * dev.cascade.sail.CliSailClient} driving the {@code sail} command line. {@code docs/sail.md} says
 * how to set it up and what has and has not run against the live service.
 */
package dev.cascade.sail;
