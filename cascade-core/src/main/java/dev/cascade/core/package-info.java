/** Cascade core. */
package dev.cascade.core;
