/**
 * Seeded, reproducible random numbers for fault injection and workloads.
 */
package io.rocelab.fabric.random;
