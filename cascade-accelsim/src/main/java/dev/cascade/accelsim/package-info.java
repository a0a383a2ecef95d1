/** Cascade accelsim. */
package dev.cascade.accelsim;
