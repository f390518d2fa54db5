/**
 * The NIC's data centre bridging settings (IEEE 802.1Qaz, as mlnx_qos and lldpad show them): which
 * priorities have PFC, which header the NIC trusts, ETS, the priority of RoCE and its CNPs, and
 * DCBX's willing mode, in which the NIC adopts what its link partner advertises.
 */
package io.rocelab.nic.dcb;
