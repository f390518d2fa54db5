package io.rocelab.topology.timeline;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkDirection;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.workload.Workload;
import java.util.Objects;

/**
 * A port's transmitter dies silently ({@code on}) or is repaired: the link stays up on both sides, but
 * every frame the port sends is lost, while what comes to it still arrives. Nothing sees a link go
 * down, so only a protocol that expects to hear from the peer (LACP, BFD, the transport's
 * retransmission timer) notices. The frames the other side sends keep their faults.
 *
 * @param end the port, {@code node:port} or a host's name
 * @param on  whether its transmitter is dead
 */
public record SilentPort(String end, boolean on) implements Action {
    public SilentPort {
        Objects.requireNonNull(end, "end");
    }

    @Override
    public String describe() {
        return "port " + end + (on ? "'s transmitter dies silently (link stays up)" : "'s transmitter works again");
    }

    @Override
    public String check(Fabric fabric, Workload workload) {
        fabric.linkAt(end);
        return null;
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        Attachment at = Attachment.parse(end);
        Link l = fabric.topology().linkAt(at);
        InProcessLink link = fabric.link(l.name());
        LinkDirection out = l.a().equals(at) ? link.aToB() : link.bToA();
        out.setFaults(on ? FaultProfile.NONE.withLoss(1.0) : FaultProfile.NONE);
    }
}
