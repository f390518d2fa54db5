package io.rocelab.perftest.run;

import io.rocelab.perftest.Mtu;
import java.util.Objects;

/**
 * What a run needs to know about the RDMA device before it creates anything: the facts perftest
 * queries with {@code ibv_query_device} and {@code ibv_query_port} and shows in its header.
 *
 * @param name                 the device name ("rocelab0"), printed as "Device"
 * @param transport            "IB" for InfiniBand and RoCE devices
 * @param linkType             "Ethernet" for RoCE, "IB" for InfiniBand
 * @param activeMtu            the port's active MTU, used unless {@code -m} asks for less
 * @param maxOutstandingReads  the device's {@code max_qp_rd_atom}, used for read and atomic
 *                             tests unless {@code -o} asks for less
 * @param defaultGidIndex      the GID index used without {@code -x} (perftest uses 0 on Ethernet)
 */
public record DeviceInfo(String name, String transport, String linkType, Mtu activeMtu,
                         int maxOutstandingReads, int defaultGidIndex) {

    public DeviceInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(linkType, "linkType");
        Objects.requireNonNull(activeMtu, "activeMtu");
        if (maxOutstandingReads < 1) {
            throw new IllegalArgumentException("maxOutstandingReads must be at least 1, got " + maxOutstandingReads);
        }
    }

    /** A RoCE device as rocelab's NIC presents itself, with the given name and port MTU. */
    public static DeviceInfo roce(String name, Mtu activeMtu, int maxOutstandingReads) {
        return new DeviceInfo(name, "IB", "Ethernet", activeMtu, maxOutstandingReads, 0);
    }
}
