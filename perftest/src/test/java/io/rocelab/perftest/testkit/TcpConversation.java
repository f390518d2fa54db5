package io.rocelab.perftest.testkit;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two byte streams of one TCP connection in a capture, reassembled by sequence number
 * (retransmissions dropped, gaps refused), with the segments kept so that a test can also check
 * how the peer wrote them.
 */
public final class TcpConversation {
    /** One segment with data, at its offset in its direction's stream. */
    public record Segment(int frameNumber, long offset, byte[] data) {
    }

    public final InetAddress client;
    public final InetAddress server;
    public final int serverPort;
    public final List<Segment> clientSegments;
    public final List<Segment> serverSegments;

    private TcpConversation(InetAddress client, InetAddress server, int serverPort, List<Segment> clientSegments,
                            List<Segment> serverSegments) {
        this.client = client;
        this.server = server;
        this.serverPort = serverPort;
        this.clientSegments = clientSegments;
        this.serverSegments = serverSegments;
    }

    /** The first connection to {@code serverPort} in the frames; the client is the side that sent the SYN. */
    public static TcpConversation of(List<Pcap.Frame> frames, int serverPort) {
        List<Packet> tcp = new ArrayList<>();
        for (Pcap.Frame f : frames) {
            Packet p = Packet.decode(f);
            if (p != null && p.protocol == Packet.TCP && (p.sourcePort == serverPort || p.destinationPort == serverPort)) {
                tcp.add(p);
            }
        }
        Packet syn = tcp.stream().filter(p -> p.syn && p.destinationPort == serverPort).findFirst()
                .orElseThrow(() -> new AssertionError("no SYN to port " + serverPort));
        Packet synAck = tcp.stream().filter(p -> p.syn && p.sourcePort == serverPort).findFirst()
                .orElseThrow(() -> new AssertionError("no SYN-ACK from port " + serverPort));
        int clientPort = syn.sourcePort;
        List<Packet> fromClient = tcp.stream().filter(p -> p.sourcePort == clientPort).toList();
        List<Packet> fromServer = tcp.stream().filter(p -> p.destinationPort == clientPort).toList();
        return new TcpConversation(syn.source, syn.destination, serverPort,
                segments(fromClient, syn.sequence), segments(fromServer, synAck.sequence));
    }

    private static List<Segment> segments(List<Packet> packets, long isn) {
        Map<Long, Segment> byOffset = new TreeMap<>();
        for (Packet p : packets) {
            if (p.payload.length == 0) {
                continue;
            }
            long offset = (p.sequence - isn - 1) & 0xffffffffL;
            byOffset.putIfAbsent(offset, new Segment(p.frameNumber, offset, p.payload));
        }
        List<Segment> list = new ArrayList<>(byOffset.values());
        list.sort(Comparator.comparingLong(Segment::offset));
        long expected = 0;
        for (Segment s : list) {
            if (s.offset() != expected) {
                throw new AssertionError("gap or overlap in the TCP stream at offset " + expected + " (frame "
                        + s.frameNumber() + " starts at " + s.offset() + ")");
            }
            expected += s.data().length;
        }
        return list;
    }

    /** Everything the client sent, in order. */
    public byte[] clientBytes() {
        return concat(clientSegments);
    }

    /** Everything the server sent, in order. */
    public byte[] serverBytes() {
        return concat(serverSegments);
    }

    private static byte[] concat(List<Segment> segments) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        segments.forEach(s -> out.writeBytes(s.data()));
        return out.toByteArray();
    }

    /** The sizes of the client's segments, in order: one per write for perftest and pingpong. */
    public List<Integer> clientWriteSizes() {
        return clientSegments.stream().map(s -> s.data().length).toList();
    }

    /** The sizes of the server's segments, in order. */
    public List<Integer> serverWriteSizes() {
        return serverSegments.stream().map(s -> s.data().length).toList();
    }
}
