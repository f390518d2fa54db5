package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.BufferPool;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.QueueConfig;
import java.util.List;

/**
 * A traffic class with PFC leaves by a lossless queue. SONiC gives a port's lossless queues an egress
 * profile that never caps them ({@code BUFFER_QUEUE|Ethernet0|3-4 egress_lossless_profile}: Mellanox
 * {@code dynamic_th 7}, Broadcom a {@code static_th} of the whole pool) and its lossy queues one that
 * does ({@code q_lossy_profile}, {@code dynamic_th 3}): a paused class in a capped queue is dropped at
 * egress once the queue passes its share, PFC or not. A port with no {@code BUFFER_QUEUE} at all (the
 * profiles rocelab writes for a lab) caps no queue and has nothing to find.
 *
 * <p>rocelab's MMU charges a lossless frame to its ingress PG only and never to its queue's cap, so a lab
 * does not drop where this finds a capped queue; a real switch would.
 */
final class LosslessQueue implements FabricCheck {
    /** SONiC's Mellanox {@code dynamic_th} for "no limit" (the egress lossless profiles' 7). */
    static final int UNLIMITED_DYNAMIC_TH = 7;

    @Override
    public void check(FabricView f, List<Finding> out) {
        for (SwitchView s : f.switches()) {
            for (PortConfig p : f.livePorts(s)) {
                boolean anyBuffer = false;
                for (QueueConfig q : p.queues()) {
                    anyBuffer |= q.buffer() != null;
                }
                if (!anyBuffer) {
                    continue;
                }
                for (int tc = 0; tc < 8; tc++) {
                    if (!p.pfcEnabled(tc)) {
                        continue;
                    }
                    int q = p.tcToQueue()[tc];
                    BufferProfile b = p.queues()[q].buffer();
                    if (b == null) {
                        out.add(new Finding(s.file(), "BUFFER_QUEUE", p.name(), String.valueOf(q), "TC " + tc
                            + " has PFC (pfc_enable " + Ports.priorities(p.pfcEnableMask()) + ") and leaves by queue " + q
                            + " (tc_to_queue_map), which has no BUFFER_QUEUE profile where the port's other queues have one"));
                    } else if (capped(b, s.config().pools().get(b.pool()))) {
                        out.add(new Finding(s.file(), "BUFFER_QUEUE", p.name(), String.valueOf(q), "TC " + tc
                            + " has PFC (pfc_enable " + Ports.priorities(p.pfcEnableMask()) + ") and leaves by queue " + q
                            + " (tc_to_queue_map), whose egress profile '" + b.name() + "' caps it (" + cap(b)
                            + "): a switch drops the paused class there once the queue passes that share"));
                    }
                }
            }
        }
    }

    /** @return whether an egress profile limits its queue below its pool */
    static boolean capped(BufferProfile b, BufferPool pool) {
        if (b.hasDynamicTh()) {
            return b.dynamicTh() < UNLIMITED_DYNAMIC_TH;
        }
        return b.staticTh() >= 0 && pool != null && b.staticTh() < pool.size();
    }

    private static String cap(BufferProfile b) {
        return b.hasDynamicTh() ? "dynamic_th " + b.dynamicTh() + " of " + b.pool()
            : "static_th " + b.staticTh() + " of " + b.pool();
    }
}
