package io.rocelab.lab.labfile;

import java.util.List;

/**
 * A bounded pcapng of some switch ports.
 *
 * @param ports  {@code switch:port}, expanded (a host's name stands for the switch port it is cabled to)
 * @param frames per port the first this many frames are kept, and as many frames that carry a switch's
 *               decision (PFC sent, ECN marked, dropped)
 */
public record CaptureSpec(List<String> ports, int frames) {
}
