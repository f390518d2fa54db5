/**
 * The lock-free queues between threads ({@link io.rocelab.fabric.queue.MessageQueues}): JCTools'
 * queues, in the kind this JVM allows.
 */
package io.rocelab.fabric.queue;
