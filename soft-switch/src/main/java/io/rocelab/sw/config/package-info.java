/**
 * The switch's configuration as data in SONiC's {@code config_db} shape, read from JSON or built from
 * Java and checked by one validator into an immutable {@link io.rocelab.sw.config.SwitchConfig},
 * with the values its tables name (a packet's {@link io.rocelab.sw.config.Color}, a port's
 * {@link io.rocelab.sw.config.Trust}). It depends on no other package of the switch; they all read it.
 */
package io.rocelab.sw.config;
