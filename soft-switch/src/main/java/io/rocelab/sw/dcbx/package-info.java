/**
 * What a switch port advertises in DCBX (IEEE 802.1Qaz's TLVs) from its SONiC configuration.
 */
package io.rocelab.sw.dcbx;
