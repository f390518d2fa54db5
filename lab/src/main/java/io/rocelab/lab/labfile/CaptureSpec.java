package io.rocelab.lab.labfile;

import java.util.List;

/**
 * A bounded pcapng of some switch ports.
 *
 * @param ports  {@code switch:port}, expanded (a host's name stands for the switch port it is cabled to)
 * @param frames the first and the last this many frames are kept
 */
public record CaptureSpec(List<String> ports, int frames) {
}
