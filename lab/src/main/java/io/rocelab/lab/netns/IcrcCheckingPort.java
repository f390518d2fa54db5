package io.rocelab.lab.netns;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.port.ForwardingFramePort;

/**
 * A port that checks every RoCEv2 frame it receives before handing it on: parsed, and its ICRC
 * recomputed. An rxe-vm host's switch port runs on one, so that a run says how many of the VM's
 * frames were good ({@link #summary()}). Receives on the owner's thread, one frame at a time.
 */
final class IcrcCheckingPort extends ForwardingFramePort {
    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();
    private volatile long frames;
    private volatile long roce;
    private volatile long malformed;
    private volatile long badIcrc;

    IcrcCheckingPort(FramePort delegate) {
        super(delegate);
    }

    @Override
    public void setReceiver(FrameReceiver receiver) {
        delegate.setReceiver(receiver == null ? null : (port, frame) -> {
            check(frame);
            receiver.onFrame(this, frame);
        });
    }

    private void check(ByteBuf frame) {
        frames++;
        DecodeError error = parsed.parse(frame);
        if (!parsed.isRoce()) {
            return;
        }
        roce++;
        if (error != null) {
            malformed++;
        } else if (!icrc.verify(parsed)) {
            badIcrc++;
        }
    }

    /** @return e.g. "from the VM 6406 frames, 6300 RoCEv2: 0 malformed, 0 with a bad ICRC" */
    String summary() {
        return "from the VM " + frames + " frames, " + roce + " RoCEv2: " + malformed + " malformed, " + badIcrc
            + " with a bad ICRC";
    }
}
