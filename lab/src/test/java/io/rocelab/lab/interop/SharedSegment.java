package io.rocelab.lab.interop;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.port.LinkStateListener;

/**
 * Both ports of a dual-port soft NIC on one Ethernet segment with a VM, as two ports of a host
 * cabled to one switch with the VM: the VM's link (qemu's one UDP socket, which sends every frame to
 * one address) is the uplink; each port's frames go up it, and each frame from it goes to the port
 * whose MAC it is addressed to, a broadcast or multicast frame (ARP, neighbour discovery) to both.
 * A frame for neither MAC goes to port 1, whose NIC counts it as not for it. Everything runs on the
 * uplink's owner thread, which is the NIC's.
 */
final class SharedSegment {
    private final FramePort uplink;
    private final Branch one;
    private final Branch two;
    private final long mac2;

    SharedSegment(FramePort uplink, String mac2) {
        this.uplink = uplink;
        this.mac2 = MacAddress.parse(mac2);
        this.one = new Branch(uplink.name() + " port 1");
        this.two = new Branch(uplink.name() + " port 2");
        uplink.setReceiver((port, frame) -> {
            long dst = MacAddress.get(frame, frame.readerIndex());
            if (MacAddress.isMulticast(dst)) {
                one.deliver(frame.retainedDuplicate());
                two.deliver(frame);
            } else if (dst == this.mac2) {
                two.deliver(frame);
            } else {
                one.deliver(frame);
            }
        });
        uplink.setWritabilityListener(() -> {
            one.writable();
            two.writable();
        });
    }

    /** The NIC's port 1 link. */
    FramePort port1() {
        return one;
    }

    /** The NIC's port 2 link. */
    FramePort port2() {
        return two;
    }

    private final class Branch implements FramePort {
        private final String name;
        private volatile FrameReceiver receiver;
        private volatile Runnable writability;

        Branch(String name) {
            this.name = name;
        }

        void deliver(ByteBuf frame) {
            FrameReceiver r = receiver;
            if (r == null) {
                frame.release();
            } else {
                r.onFrame(this, frame);
            }
        }

        void writable() {
            Runnable w = writability;
            if (w != null) {
                w.run();
            }
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void send(ByteBuf frame) {
            uplink.send(frame);
        }

        @Override
        public void setReceiver(FrameReceiver r) {
            receiver = r;
        }

        @Override
        public boolean isUp() {
            return uplink.isUp();
        }

        @Override
        public void addLinkStateListener(LinkStateListener listener) {
            uplink.addLinkStateListener((port, up) -> listener.onLinkStateChange(this, up));
        }

        @Override
        public boolean removeLinkStateListener(LinkStateListener listener) {
            return false;
        }

        @Override
        public boolean isWritable() {
            return uplink.isWritable();
        }

        @Override
        public void setWritabilityListener(Runnable listener) {
            writability = listener;
        }

        @Override
        public long speedBitsPerSecond() {
            return uplink.speedBitsPerSecond();
        }
    }
}
