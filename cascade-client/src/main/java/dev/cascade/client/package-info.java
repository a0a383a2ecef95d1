/**
 * A Java client of a running Cascade's HTTP API: {@link dev.cascade.client.CascadeClient} gives the
 * same {@code Runs}, {@code Traces} and {@code Results} interfaces an embedded Cascade has.
 */
package dev.cascade.client;
