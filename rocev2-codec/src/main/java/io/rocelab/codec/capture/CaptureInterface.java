package io.rocelab.codec.capture;

/**
 * One capture interface as a file describes it: a pcapng Interface Description Block
 * (draft-ietf-opsawg-pcapng §4.2), or the single implicit interface of a classic pcap file whose
 * header carries only the link type and snap length. In rocelab an interface is a port of a NIC or
 * a switch.
 *
 * @param id                 index of the interface within its section (0 for classic pcap); the
 *                           interface id of the {@link CaptureRecord}s captured on it
 * @param name               if_name, or null when the file does not say (always null for pcap)
 * @param description        if_description, or null when the file does not say
 * @param linkType           LINKTYPE_ value, see {@link LinkType}
 * @param snapLen            maximum number of bytes captured per packet; 0 means no limit
 * @param speedBitsPerSecond if_speed, or 0 when the file does not say
 */
public record CaptureInterface(
        int id, String name, String description, int linkType, int snapLen, long speedBitsPerSecond) {
}
