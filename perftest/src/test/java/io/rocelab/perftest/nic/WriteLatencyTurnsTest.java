package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.testkit.Packet;
import io.rocelab.perftest.testkit.Pcap;
import io.rocelab.perftest.testkit.RoceRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ib_write_lat's turns, as perftest's {@code run_iter_lat_write} takes them: the server posts its
 * first WRITE at once; the client first waits until the server's count shows in the last byte of
 * its buffer; from then on each side writes its next count once it has seen the other's. (The
 * send ping-pong, {@code run_iter_lat_send}, starts the other way round: there the client sends
 * first.) A side that starts like the send ping-pong deadlocks against perftest as a server (both
 * wait) and overruns it as a client: both write 1, the client's 2 follows at once, and perftest's
 * server, still waiting for its first completion, then looks for a 1 that the 2 has overwritten.
 */
@Timeout(120)
class WriteLatencyTurnsTest {
    /** RC RDMA WRITE ONLY (IBA table 39): what a 64-byte ib_write_lat message is on a 4096-byte MTU. */
    private static final int RC_RDMA_WRITE_ONLY = 0x0a;
    private static final int ITERS = 20;

    /** Who wrote, in the order the WRITEs left, each PSN once (a retransmission is not a new turn). */
    private static List<String> turns(List<String> sides, List<Integer> psns) {
        List<String> turns = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < sides.size(); i++) {
            if (seen.add(sides.get(i) + "/" + psns.get(i))) {
                turns.add(sides.get(i));
            }
        }
        return turns;
    }

    private static void serverFirstThenInTurn(List<String> turns, String where) {
        assertEquals(2 * ITERS, turns.size(), where + ": one WRITE per side and iteration: " + turns);
        for (int i = 0; i < turns.size(); i++) {
            assertEquals(i % 2 == 0 ? "server" : "client", turns.get(i),
                    where + ": WRITE " + (i + 1) + " of " + turns);
        }
    }

    @Test
    void realPerftestsServerWritesFirstAndTheSidesTakeTurns() {
        List<Pcap.Frame> frames = Pcap.read("write_lat.pcap");
        InetAddress server = null;
        for (Pcap.Frame f : frames) {
            Packet p = Packet.decode(f);
            if (p != null && p.protocol == Packet.TCP && p.syn && p.destinationPort == OobServer.DEFAULT_PORT) {
                server = p.destination;
                break;
            }
        }
        assertTrue(server != null, "the capture holds the client's connection to the server's port");
        List<String> sides = new ArrayList<>();
        List<Integer> psns = new ArrayList<>();
        for (RoceRequest r : RoceRequest.all(frames)) {
            if (r.opcode() == RC_RDMA_WRITE_ONLY) {
                sides.add(r.source().equals(server) ? "server" : "client");
                psns.add(r.psn());
            }
        }
        serverFirstThenInTurn(turns(sides, psns), "rxe's capture of perftest");
    }

    @Test
    void rocelabsServerWritesFirstAndTheSidesTakeTurns() throws Exception {
        List<String> sides = Collections.synchronizedList(new ArrayList<>());
        List<Integer> psns = Collections.synchronizedList(new ArrayList<>());
        NicSessions p = NicSessions.runTapped(TestKind.WRITE_LAT, (server, port) -> new ForwardingFramePort(port) {
            @Override
            public void send(ByteBuf frame) {
                int psn = writeOnlyPsn(frame);
                if (psn >= 0) {
                    synchronized (sides) {
                        sides.add(server ? "server" : "client");
                        psns.add(psn);
                    }
                }
                super.send(frame);
            }
        }, "-s", "64", "-n", String.valueOf(ITERS));
        assertEquals(0, p.server.status, p.server.toString());
        assertEquals(0, p.client.status, p.client.toString());
        synchronized (sides) {
            serverFirstThenInTurn(turns(sides, psns), "rocelab's server and client");
        }
    }

    /** The PSN of an RC RDMA WRITE ONLY in an untagged Ethernet/IPv4/UDP 4791 frame, else -1. */
    private static int writeOnlyPsn(ByteBuf f) {
        int at = f.readerIndex();
        if (f.readableBytes() < 14 + 20 + 8 + 12 || f.getUnsignedShort(at + 12) != 0x0800) {
            return -1;
        }
        int ip = at + 14;
        int udp = ip + (f.getByte(ip) & 0x0f) * 4;
        if (f.getUnsignedByte(ip + 9) != 17 || f.getUnsignedShort(udp + 2) != 4791) {
            return -1;
        }
        int bth = udp + 8;
        return f.getUnsignedByte(bth) == RC_RDMA_WRITE_ONLY ? f.getInt(bth + 8) & 0xffffff : -1;
    }
}
