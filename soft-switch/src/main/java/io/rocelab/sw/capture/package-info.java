/**
 * Capture taps on a switch's ports ({@link io.rocelab.sw.capture.SwitchCapture}): pcapng of the whole
 * switch with a comment on every decision worth seeing, or classic pcap per port (docs/design.md §6).
 */
package io.rocelab.sw.capture;
