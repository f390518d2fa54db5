/**
 * Management datagrams on QP1 (IBA 13.4) and the Communication Manager's messages (IBA 12.6):
 * the REQ/REP/RTU handshake, DREQ/DREP, REJ and MRA that rdma_cm sends over RoCEv2 as UD SENDs
 * with Q_Key 0x80010000, and rdma_cm's IP addressing header in the REQ's private data (IBA Annex
 * A11). Each message is a record that decodes from and encodes to the 232 bytes after the MAD
 * header, reserved bits included, so a real MAD survives a round trip byte for byte.
 */
package io.rocelab.codec.mad;
