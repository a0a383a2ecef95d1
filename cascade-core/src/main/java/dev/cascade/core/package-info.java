/**
 * Cascade's public API: the domain values (traces, GPU configs, runs, sims and their states) and
 * the services an embedding program uses. Everything under {@code dev.cascade.core.internal} may
 * change without notice.
 */
package dev.cascade.core;
