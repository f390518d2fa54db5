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
 */
public record RdmaDevice(String name, int ibPort, Mtu requestedMtu, boolean mrPerQp) {

    /** The settings while perftest's rules fill them in; starts at perftest's defaults. */
    static final class Builder {
        String name = null;
        int ibPort = 1;
        Mtu requestedMtu = null;
        boolean mrPerQp = false;

        Builder() {
        }

        Builder(RdmaDevice d) {
            name = d.name;
            ibPort = d.ibPort;
            requestedMtu = d.requestedMtu;
            mrPerQp = d.mrPerQp;
        }

        RdmaDevice build() {
            return new RdmaDevice(name, ibPort, requestedMtu, mrPerQp);
        }
    }
}
