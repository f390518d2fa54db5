/**
 * Labs on the Linux network ({@code rocelab lab run FILE --mode netns}): a network namespace per
 * host and one for the fabric's switches, veth pairs for the links, the soft NICs and switches on
 * raw sockets on the veth ends, iperf3 between plain namespaces, and the clean-up of all of it.
 */
package io.rocelab.lab.netns;
