/**
 * The switch as a VXLAN tunnel endpoint (RFC 7348): {@link io.rocelab.sw.vxlan.Vtep} encapsulates
 * the frames of VLANs mapped to VNIs toward remote VTEPs and decapsulates those sent to its
 * address, with the tunnel's DSCP and ECN modes (SAI saitunnel.h, RFC 6040) and SONiC's tunnel
 * counters; {@link io.rocelab.sw.vxlan.VxlanViews} prints {@code show vxlan ...}.
 */
package io.rocelab.sw.vxlan;
