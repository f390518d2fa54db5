/**
 * Packet capture files: classic pcap and pcapng, read and written in pure Java.
 *
 * <p>Labs write one classic pcap per port ({@link io.rocelab.codec.capture.PcapWriter}) or one
 * pcapng for a whole topology ({@link io.rocelab.codec.capture.PcapngWriter}: one interface per
 * port, packet comments for switch decisions). {@link io.rocelab.codec.capture.CaptureReader#open}
 * reads either format back, whatever its byte order or timestamp resolution, and turns any
 * malformed input into a {@link io.rocelab.codec.capture.CaptureFormatException} that names the
 * file offset.
 *
 * <p>The code follows two IETF drafts: draft-ietf-opsawg-pcap (classic pcap) and
 * draft-ietf-opsawg-pcapng (pcapng); comments cite their section numbers. No native library is
 * involved, so captures can be written and read on any host, including under virtual time.
 *
 * <p>Readers and writers are not thread-safe: like a NIC or a switch, each one has a single owner
 * thread.
 */
package io.rocelab.codec.capture;
