/** Cascade s3. */
package dev.cascade.s3;
