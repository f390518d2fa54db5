package io.rocelab.perftest.nic;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.SoftNic;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * A {@link NicAttachment} made of its parts: the owner thread, the port (and the second link's, if
 * any), a description, what closing releases, and what it sets on the NIC's builder.
 *
 * @param scheduler the NIC's owner thread
 * @param port      the port the NIC's frames use
 * @param port2     the second link's port (port 2, or a bond's second member), or null
 * @param describe  the description for messages
 * @param onClose   what closing releases (nothing for parts the caller owns)
 * @param nicSetup  what the attachment sets on the NIC's builder, given the second link's port
 */
public record PlainAttachment(Scheduler scheduler, FramePort port, FramePort port2, String describe, Runnable onClose,
                              BiFunction<SoftNic.Builder, FramePort, SoftNic.Builder> nicSetup)
        implements NicAttachment {
    public PlainAttachment {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(describe, "describe");
        Objects.requireNonNull(onClose, "onClose");
        Objects.requireNonNull(nicSetup, "nicSetup");
    }

    /** A single-link attachment. */
    public PlainAttachment(Scheduler scheduler, FramePort port, String describe, Runnable onClose,
                           UnaryOperator<SoftNic.Builder> nicSetup) {
        this(scheduler, port, null, describe, onClose, (nic, port2) -> nicSetup.apply(nic));
    }

    /** An attachment to parts the caller owns: closing it releases nothing. */
    public static PlainAttachment borrowed(Scheduler scheduler, FramePort port, String describe) {
        return new PlainAttachment(scheduler, port, describe, () -> { }, UnaryOperator.identity());
    }

    @Override
    public SoftNic.Builder configure(SoftNic.Builder nic) {
        return nicSetup.apply(nic, port2);
    }

    @Override
    public SoftNic.Builder configure(SoftNic.Builder nic, FramePort secondLink) {
        return nicSetup.apply(nic, secondLink);
    }

    @Override
    public void close() {
        onClose.run();
    }
}
