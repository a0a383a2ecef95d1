/** Cascade examples. */
package dev.cascade.examples;
