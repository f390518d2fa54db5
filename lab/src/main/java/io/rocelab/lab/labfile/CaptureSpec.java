package io.rocelab.lab.labfile;

import java.util.List;

/**
 * A bounded pcapng of some switch ports.
 *
 * @param ports  {@code switch:port}, expanded (a host's name stands for the switch port it is cabled to)
 * @param frames per port the first this many frames are kept, and as many frames that carry a switch's
 *               decision (PFC sent, ECN marked, dropped)
 * @param tshark hosts whose interface tshark captures in netns mode (their namespace's {@code eth0}), whole
 *               frames' first 128 bytes, in a pcapng of each
 */
public record CaptureSpec(List<String> ports, int frames, List<String> tshark) {
}
