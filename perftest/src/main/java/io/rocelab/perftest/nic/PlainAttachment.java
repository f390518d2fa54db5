package io.rocelab.perftest.nic;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.SoftNic;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A {@link NicAttachment} made of its parts: the owner thread, the port, a description, what
 * closing releases, and what it sets on the NIC's builder.
 *
 * @param scheduler the NIC's owner thread
 * @param port      the port the NIC's frames use
 * @param describe  the description for messages
 * @param onClose   what closing releases (nothing for parts the caller owns)
 * @param nicSetup  what the attachment sets on the NIC's builder
 */
public record PlainAttachment(Scheduler scheduler, FramePort port, String describe, Runnable onClose,
                              UnaryOperator<SoftNic.Builder> nicSetup) implements NicAttachment {
    public PlainAttachment {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(describe, "describe");
        Objects.requireNonNull(onClose, "onClose");
        Objects.requireNonNull(nicSetup, "nicSetup");
    }

    /** An attachment to parts the caller owns: closing it releases nothing. */
    public static PlainAttachment borrowed(Scheduler scheduler, FramePort port, String describe) {
        return new PlainAttachment(scheduler, port, describe, () -> { }, UnaryOperator.identity());
    }

    @Override
    public SoftNic.Builder configure(SoftNic.Builder nic) {
        return nicSetup.apply(nic);
    }

    @Override
    public void close() {
        onClose.run();
    }
}
