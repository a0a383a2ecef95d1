/** The launcher service-provider interface: how Cascade starts and stops sims somewhere. */
package dev.cascade.core.spi;
