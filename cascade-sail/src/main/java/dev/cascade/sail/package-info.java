/** Cascade sail. */
package dev.cascade.sail;
