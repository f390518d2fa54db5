/**
 * Counters with a single writer and any number of readers.
 */
package io.rocelab.fabric.stats;
