package io.rocelab.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A measuring tool, not a test: {@code ib_write_bw}'s loop (WRITEs of {@code size} bytes, TX depth
 * 128, one signalled WR in 100, timeout 14, retry 7) between two JVMs over frame-over-UDP, printing
 * the bandwidth and every NIC and port counter of its side, so that a loss can be located.
 * Fixed addresses, QPNs and PSNs replace perftest's TCP exchange.
 * <pre>
 * server: java -cp ... io.rocelab.nic.UdpWriteBwMain server LPORT RPORT [size iters [k=v...]]
 * client: java -cp ... io.rocelab.nic.UdpWriteBwMain client LPORT RPORT [size iters [k=v...]]
 * </pre>
 * Options: {@code rcvbuf=BYTES} (the port's socket buffers), {@code rate=GBPS} and {@code burst=BYTES}
 * (the port's pacing), {@code socket-thread=1}, {@code cold=1} (no warm-up: the first frames meet a
 * cold JVM, as ARP does),
 * {@code mtu=BYTES}, {@code static-arp=true} (skip ARP).
 */
public final class UdpWriteBwMain {
    static final int IP_SERVER = Ipv4.parse("10.77.0.1");
    static final int IP_CLIENT = Ipv4.parse("10.77.0.2");
    static final long VADDR = 0x7f00_0000_0000L;
    static final int RKEY = 0x15a;
    static final int PSN_SERVER = 0x123456;
    static final int PSN_CLIENT = 0xfffff0;
    static final int TX_DEPTH = 128;
    static final int CQ_MOD = 100;

    private UdpWriteBwMain() {
    }

    /** As the perftest tool does: the data path once between two throwaway NICs, so the JIT is not measured. */
    static void warmUp() throws Exception {
        try (RealTimeScheduler s = RealTimeScheduler.start("warmup")) {
            io.rocelab.fabric.link.InProcessLink link = io.rocelab.fabric.link.InProcessLink.builder().name("w")
                    .rateGbps(100).build(s);
            SoftNic a = SoftNic.builder().name("wa").mac("02:00:00:00:00:0a").ipv4("192.0.2.10").activeMtu(4096)
                    .scheduler(s).port(link.portA()).build();
            SoftNic b = SoftNic.builder().name("wb").mac("02:00:00:00:00:0b").ipv4("192.0.2.11").activeMtu(4096)
                    .scheduler(s).port(link.portB()).build();
            ProtectionDomain pa = a.allocPd();
            ProtectionDomain pb = b.allocPd();
            CompletionQueue ca = a.createCq(1024);
            CompletionQueue cb = b.createCq(1024);
            QueuePair qa = a.createQp(pa, QpType.RC, ca, ca, QpCaps.defaults());
            QueuePair qb = b.createQp(pb, QpType.RC, cb, cb, QpCaps.defaults());
            byte[] ma = new byte[8192];
            byte[] mb = new byte[8192];
            MemoryRegion ra = pa.registerMr(ma, 0x100000, AccessFlags.ALL);
            MemoryRegion rb = pb.registerMr(mb, 0x200000, AccessFlags.ALL);
            for (QueuePair[] q : new QueuePair[][] {{qa, qb}, {qb, qa}}) {
                q[0].modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
                q[0].modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(q[0] == qa ? b.ipv4() : a.ipv4()))
                        .pathMtu(4096).destQpn(q[1].qpn()).rqPsn(7).maxDestRdAtomic(16).minRnrTimer(12));
                q[0].modify(new QpAttr().state(QpState.RTS).sqPsn(7).timeout(14).retryCnt(7).rnrRetry(7)
                        .maxRdAtomic(16));
            }
            List<WorkCompletion> got = new ArrayList<>();
            long end = System.nanoTime() + 10_000_000_000L;
            for (int i = 0; i < 2000 && System.nanoTime() < end; i++) {
                qa.postSend(SendWr.write(i, Sge.of(ra, 0, 4096), rb.addr(), rb.rkey()));
                got.clear();
                while (ca.poll(16, got) == 0 && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
            a.close();
            b.close();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean server = args[0].equals("server");
        int lport = Integer.parseInt(args[1]);
        int rport = Integer.parseInt(args[2]);
        int size = args.length > 3 ? Integer.parseInt(args[3]) : 4096;
        int iters = args.length > 4 ? Integer.parseInt(args[4]) : 200;
        Map<String, String> opt = new java.util.HashMap<>();
        for (int i = 5; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            opt.put(kv[0], kv[1]);
        }
        int rcvbuf = Integer.parseInt(opt.getOrDefault("rcvbuf", String.valueOf(4 << 20)));
        double rate = Double.parseDouble(opt.getOrDefault("rate", "-1"));
        int mtu = Integer.parseInt(opt.getOrDefault("mtu", "4096"));
        boolean staticArp = Boolean.parseBoolean(opt.getOrDefault("static-arp", "false"));
        if (!opt.containsKey("cold")) {
            warmUp();
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        UdpFramePort.Builder pb = UdpFramePort.builder().name(args[0]).localPort(lport).remotePort(rport)
                .socketBufferBytes(rcvbuf).socketThread(opt.containsKey("socket-thread"));
        if (rate > 0) {
            pb.transmitRate(rate, Integer.parseInt(opt.getOrDefault("burst", "131072")));
        }
        try (RealTimeScheduler sched = RealTimeScheduler.start(server ? "srv-nic" : "cli-nic");
             UdpFramePort port = pb.open(sched)) {
            SoftNic.Builder nb = SoftNic.builder().name(args[0])
                    .mac(server ? "52:54:00:77:01:01" : "52:54:00:77:01:02")
                    .ipv4(server ? IP_SERVER : IP_CLIENT).activeMtu(mtu).scheduler(sched).port(port);
            SoftNic nic = nb.build();
            if (staticArp) {
                nic.addNeighbor(server ? IP_CLIENT : IP_SERVER, server ? 0x5254_0077_0102L : 0x5254_0077_0101L);
            }
            ProtectionDomain pd = nic.allocPd();
            CompletionQueue cq = nic.createCq(1024);
            QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, new QpCaps(TX_DEPTH + 16, 16, 1, 1, 0, false));
            byte[] mem = new byte[2 * size];
            MemoryRegion mr = nic.registerMrWithKey(pd, mem, VADDR, AccessFlags.ALL, RKEY);
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
            if (server) {
                qp.postRecv(new RecvWr(1, Sge.of(mr, 0, size)));
            }
            qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(server ? IP_CLIENT : IP_SERVER))
                    .pathMtu(mtu).destQpn(SoftNic.FIRST_QPN).rqPsn(server ? PSN_CLIENT : PSN_SERVER)
                    .maxDestRdAtomic(16).minRnrTimer(12));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(server ? PSN_SERVER : PSN_CLIENT).timeout(14)
                    .retryCnt(7).rnrRetry(7).maxRdAtomic(16));
            System.out.println("READY");
            List<WorkCompletion> wcs = new ArrayList<>();
            String result;
            if (server) {
                while (cq.poll(16, wcs) == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                result = wcs.isEmpty() ? "server: no final SEND" : "server: final SEND " + wcs.get(0).status();
                Thread.sleep(200); // answer retransmissions of the SEND
            } else {
                long start = System.nanoTime();
                long scnt = 0;
                long ccnt = 0;
                while (ccnt < iters && System.nanoTime() < deadline) {
                    while (scnt < iters && scnt - ccnt < TX_DEPTH) {
                        qp.postSend(SendWr.write(scnt, Sge.of(mr, 0, size), VADDR + size, RKEY)
                                .signaled(scnt % CQ_MOD == CQ_MOD - 1 || scnt == iters - 1));
                        scnt++;
                    }
                    wcs.clear();
                    if (cq.poll(16, wcs) == 0) {
                        Thread.onSpinWait();
                    }
                    for (WorkCompletion wc : wcs) {
                        if (!wc.isSuccess()) {
                            System.out.println("client: completion " + wc);
                            ccnt = iters;
                            break;
                        }
                        ccnt += Math.min(CQ_MOD, iters - ccnt);
                    }
                }
                long ns = System.nanoTime() - start;
                result = String.format("client: %d x %d B in %.1f ms = %.2f MB/s", ccnt, size, ns / 1e6,
                        ccnt * (double) size / (ns / 1e3));
                qp.postSend(SendWr.send(9999, Sge.of(mr, 0, 16)));
                wcs.clear();
                while (cq.poll(16, wcs) == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
            }
            System.out.println(result + " (" + port + ")");
            nic.counters().snapshot().forEach((c, v) -> {
                if (v != 0) {
                    System.out.println("  nic  " + c.rxeName() + " " + v);
                }
            });
            port.counters().snapshot().forEach((c, v) -> {
                if (v != 0) {
                    System.out.println("  port " + c + " " + v);
                }
            });
            nic.close();
        }
        System.exit(0);
    }
}
