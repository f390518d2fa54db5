/**
 * LLDP (IEEE 802.1AB) and the DCBX TLVs it carries (IEEE 802.1Qaz, the IEEE 802.1 organizationally
 * specific TLVs of OUI 00-80-C2): what a port tells its link partner about itself and its data
 * centre bridging configuration (ETS, PFC, application priorities).
 */
package io.rocelab.codec.lldp;
