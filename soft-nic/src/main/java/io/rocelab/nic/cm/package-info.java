/**
 * The connection manager (IBA chapter 12) as Linux's ib_cm and rdma_cm run it over RoCEv2: QP1
 * (the GSI) carries REQ/REP/RTU to connect an RC QP and DREQ/DREP to disconnect it, with rdma_cm's
 * IP addressing (service IDs from TCP ports, the IP header in the REQ's private data, the flow
 * label that gives the QP its UDP source port). Everything runs on the NIC's owner thread.
 */
package io.rocelab.nic.cm;
