package io.rocelab.perftest.cli;

import io.rocelab.perftest.Mtu;

/**
 * The RDMA device a perftest run uses and how it uses it (the settings of {@link DeviceFlags}):
 * which device and port, the path MTU asked for, and how buffers are registered.
 *
 * @param name         {@code -d}: RDMA device name; null means the first device found
 * @param ibPort       {@code -i}: port of the device, from 1; perftest's default is 1
 * @param requestedMtu {@code -m}: the path MTU asked for; null means the port's active MTU
 * @param mrPerQp      {@code --mr_per_qp}: register a memory region per QP instead of one shared
 * @param dualPort     {@code -O}: perftest's dual-port mode, the first half of the QPs on port
 *                     {@code ibPort} (1) and the second half on port 2 ({@code ib_port2})
 */
public record RdmaDevice(String name, int ibPort, Mtu requestedMtu, boolean mrPerQp, boolean dualPort) {
    /** perftest's {@code DEF_IB_PORT2}: the port of the second half of the QPs with {@code -O}. */
    public static final int IB_PORT2 = 2;


    /** The settings while perftest's rules fill them in; starts at perftest's defaults. */
    static final class Builder {
        String name = null;
        int ibPort = 1;
        Mtu requestedMtu = null;
        boolean mrPerQp = false;
        boolean dualPort = false;

        Builder() {
        }

        Builder(RdmaDevice d) {
            name = d.name;
            ibPort = d.ibPort;
            requestedMtu = d.requestedMtu;
            mrPerQp = d.mrPerQp;
            dualPort = d.dualPort;
        }

        RdmaDevice build() {
            return new RdmaDevice(name, ibPort, requestedMtu, mrPerQp, dualPort);
        }
    }
}
