/**
 * The switch's routing control plane: an eBGP speaker with BFD, as SONiC runs FRR in a leaf-spine
 * or fat tree (RFC 7938). One {@link io.rocelab.sw.routing.BgpSpeaker} per switch, on the switch's
 * owner thread, its time only from the switch's scheduler; its messages are real frames on the
 * fabric's links (BGP in TCP to port 179, BFD in UDP to port 3784), so a cut cable loses them.
 * It sees its switch only through {@link io.rocelab.sw.routing.ControlPlane} and
 * {@link io.rocelab.sw.routing.Fib}.
 */
package io.rocelab.sw.routing;
