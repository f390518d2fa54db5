/**
 * Frame-over-UDP ports: one whole Ethernet frame per UDP datagram, the format of qemu's
 * {@code -netdev socket,udp=...,localaddr=...}. Joins rocelab processes, hosts and qemu VMs
 * (Linux rdma_rxe) without root.
 */
package io.rocelab.fabric.udp;
