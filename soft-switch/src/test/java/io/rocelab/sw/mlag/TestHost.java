package io.rocelab.sw.mlag;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Lacpdu;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.fabric.lag.LacpAggregator;
import io.rocelab.fabric.lag.LacpSettings;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import java.util.ArrayList;
import java.util.List;

/**
 * A host on one port, or bonded over several in 802.3ad mode (LACP, as a Linux bond with
 * {@code lacp_rate fast}): it sends a flow's frames by one of its distributing ports, picked by
 * the flow, and counts the frames for it (or broadcast) that its collecting ports take in.
 */
final class TestHost {
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
    final long mac;
    final int ip;
    final List<FramePort> ports = new ArrayList<>();
    final List<LacpActor> actors = new ArrayList<>();
    final LacpAggregator bond = new LacpAggregator(false);
    long rxFrames;
    long rxNotForMe;

    TestHost(Scheduler time, long mac, int ip, List<FramePort> links, boolean lacp) {
        this.mac = mac;
        this.ip = ip;
        for (int i = 0; i < links.size(); i++) {
            FramePort port = links.get(i);
            ports.add(port);
            LacpActor a = lacp ? new LacpActor(time, new LacpSettings(LacpSettings.DEFAULT_SYSTEM_PRIORITY, mac, 1,
                LacpSettings.DEFAULT_PORT_PRIORITY, i + 1, true, true), mac, alloc, port::send) : null;
            actors.add(a);
            port.setReceiver((p, f) -> onFrame(a, f));
            if (a != null) {
                port.addLinkStateListener((p, up) -> a.linkStateChanged(up));
                bond.add(a);
                a.linkStateChanged(port.isUp());
            }
        }
    }

    private void onFrame(LacpActor a, ByteBuf f) {
        try {
            if (Lacpdu.isLacp(f)) {
                if (a != null) {
                    a.receive(Lacpdu.ofFrame(f));
                }
                return;
            }
            if (a != null && !a.collecting()) {
                return;
            }
            long dst = Ethernet.dst(f, f.readerIndex());
            if (dst == mac || dst == 0xFFFF_FFFF_FFFFL) {
                rxFrames++;
            } else {
                rxNotForMe++;
            }
        } finally {
            f.release();
        }
    }

    /** @return the ports frames may leave by now */
    List<FramePort> distributing() {
        List<FramePort> out = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            LacpActor a = actors.get(i);
            if (ports.get(i).isUp() && (a == null || a.distributing())) {
                out.add(ports.get(i));
            }
        }
        return out;
    }

    /** Sends one frame of flow {@code sport} to {@code dstMac}/{@code dstIp}; false if no port may carry it. */
    boolean send(long dstMac, int dstIp, int sport) {
        List<FramePort> d = distributing();
        if (d.isEmpty()) {
            return false;
        }
        ByteBuf f = new RoceFrame().ethernet(dstMac, mac).ipv4(ip, dstIp).udp(sport, 4791).dscpEcn(0, 0)
            .opcode(Opcode.RC_SEND_ONLY).destQp(0x11).psn(0).payload(new byte[64]).encode(alloc);
        d.get(Math.floorMod(sport * 31, d.size())).send(f);
        return true;
    }
}
