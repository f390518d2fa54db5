/**
 * sFlow version 5 datagrams (sflow.org, "sFlow Version 5", 2004, {@code sflow_version_5.txt}): what
 * a switch's sFlow agent sends its collectors over UDP (port 6343). XDR (RFC 4506) throughout: the
 * datagram header (agent address, sub-agent id, sequence number, uptime), flow samples (enterprise 0
 * format 1) with the raw packet header record (format 1), counter samples (format 2) with the generic
 * interface (format 1) and Ethernet interface (format 2) counter records. Other samples and records
 * are kept as opaque bytes, as the specification asks a collector to skip what it does not know.
 * {@link io.rocelab.codec.sflow.SflowCodec} writes and reads them; malformed input is a counted drop,
 * never an exception.
 */
package io.rocelab.codec.sflow;
