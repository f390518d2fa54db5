package io.rocelab.topology.model;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.nic.Gid;
import io.rocelab.nic.cc.DcqcnParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A host with one soft NIC, as {@code ip link} / {@code ip addr} would describe its port.
 *
 * @param name                   unique node name
 * @param mac                    the NIC's MAC address
 * @param ipv4                   its IPv4 address (GID index 1, IPv4-mapped)
 * @param ipv6                   its global IPv6 addresses, canonical text, GID index 2 on in order
 * @param activeMtu              the RoCE path MTU of the port, 256..4096 (IBA 256-4096 byte MTUs)
 * @param vlanId                 802.1Q VLAN of the port, 0 for untagged
 * @param pcp                    PCP of RoCE frames on that VLAN (0 when untagged)
 * @param linkSpeedBitsPerSecond the port's line rate, 0 to take the switch port's
 * @param dcqcn                  the NIC's congestion control: DCQCN with these parameters (mlx5's
 *                               {@code cc_params}), or null for none (the default, rxe's wire bytes)
 */
public record Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                   long linkSpeedBitsPerSecond, DcqcnParams dcqcn) implements Node {
    /** The name of a host's only port. */
    public static final String PORT = "eth0";
    /** {@link #congestionControl()} of a NIC without congestion control. */
    public static final String CC_NONE = "none";
    /** {@link #congestionControl()} of a NIC running DCQCN. */
    public static final String CC_DCQCN = "dcqcn";

    public Host {
        Objects.requireNonNull(name, "name");
        ipv6 = List.copyOf(ipv6);
    }

    /** A host whose NIC has no congestion control. */
    public Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                long linkSpeedBitsPerSecond) {
        this(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, null);
    }

    /** @return {@value #CC_NONE} or {@value #CC_DCQCN} */
    public String congestionControl() {
        return dcqcn == null ? CC_NONE : CC_DCQCN;
    }

    /** @return the same host with DCQCN with {@code params} on its NIC, or none if null */
    public Host withDcqcn(DcqcnParams params) {
        return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, params);
    }

    /** @return a builder for a host called {@code name} */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    @Override
    public boolean hasPort(String port) {
        return PORT.equals(port);
    }

    /** @return the host's port as a link end */
    public Attachment port() {
        return Attachment.host(name);
    }

    @Override
    public String toString() {
        return "host " + name + " " + MacAddress.toString(mac) + " " + Ipv4.toString(ipv4)
            + (ipv6.isEmpty() ? "" : " " + String.join(" ", ipv6));
    }

    /** Fills in a {@link Host}; every setter checks its argument. */
    public static final class Builder {
        private final String name;
        private long mac = -1;
        private int ipv4;
        private boolean ipv4Set;
        private final List<String> ipv6 = new ArrayList<>();
        private int activeMtu = 4096;
        private int vlanId;
        private int pcp;
        private long linkSpeed;
        private DcqcnParams dcqcn;

        private Builder(String name) {
            if (name == null || name.isBlank() || name.contains(":")) {
                throw new IllegalArgumentException("a host's name must be non-empty and have no ':': '" + name + "'");
            }
            this.name = name;
        }

        public Builder mac(long address) {
            if (MacAddress.isMulticast(address) || address == 0) {
                throw new IllegalArgumentException("host " + name + ": mac must be unicast: " + MacAddress.toString(address));
            }
            mac = address;
            return this;
        }

        public Builder mac(String address) {
            return mac(MacAddress.parse(address));
        }

        public Builder ipv4(int address) {
            ipv4 = address;
            ipv4Set = true;
            return this;
        }

        public Builder ipv4(String address) {
            return ipv4(Ipv4.parse(address));
        }

        /** Adds a global unicast IPv6 address. */
        public Builder ipv6(String address) {
            Gid g = Gid.ipv6(address);
            if (g.isIpv4Mapped() || g.isMulticast() || g.isUnspecified() || g.isLinkLocal()) {
                throw new IllegalArgumentException("host " + name + ": ipv6 must be a global unicast address: " + address);
            }
            ipv6.add(Ipv6.toString(Ipv6.parse(address)));
            return this;
        }

        /** 256, 512, 1024, 2048 or 4096 (the default). */
        public Builder activeMtu(int bytes) {
            if (bytes != 256 && bytes != 512 && bytes != 1024 && bytes != 2048 && bytes != 4096) {
                throw new IllegalArgumentException("host " + name + ": activeMtu must be 256..4096, a power of two: " + bytes);
            }
            activeMtu = bytes;
            return this;
        }

        /** Tags every frame with VLAN {@code id}, RoCE frames with priority {@code rocePcp}. */
        public Builder vlan(int id, int rocePcp) {
            if (id < 1 || id > 4094) {
                throw new IllegalArgumentException("host " + name + ": vlan must be 1..4094: " + id);
            }
            if (rocePcp < 0 || rocePcp > 7) {
                throw new IllegalArgumentException("host " + name + ": pcp must be 0..7: " + rocePcp);
            }
            vlanId = id;
            pcp = rocePcp;
            return this;
        }

        /** The port's line rate; by default the switch port's. */
        public Builder linkSpeedBitsPerSecond(long bitsPerSecond) {
            if (bitsPerSecond <= 0) {
                throw new IllegalArgumentException("host " + name + ": link speed must be > 0: " + bitsPerSecond);
            }
            linkSpeed = bitsPerSecond;
            return this;
        }

        public Builder linkSpeedGbps(long gbps) {
            return linkSpeedBitsPerSecond(gbps * 1_000_000_000L);
        }

        /** DCQCN on the NIC with {@code params} ({@code DcqcnParams.defaults()}: ConnectX's); null for none. */
        public Builder dcqcn(DcqcnParams params) {
            dcqcn = params;
            return this;
        }

        /**
         * The NIC's congestion control by name: {@value #CC_NONE}, or {@value #CC_DCQCN} with
         * ConnectX's default parameters.
         */
        public Builder congestionControl(String name) {
            if (CC_NONE.equals(name)) {
                dcqcn = null;
            } else if (CC_DCQCN.equals(name)) {
                dcqcn = DcqcnParams.defaults();
            } else {
                throw new IllegalArgumentException("host " + this.name + ": congestion control must be " + CC_NONE
                    + " or " + CC_DCQCN + ", not '" + name + "'");
            }
            return this;
        }

        /** @throws IllegalArgumentException if the MAC or the IPv4 address was not given */
        public Host build() {
            if (mac < 0) {
                throw new IllegalArgumentException("host " + name + ": no mac");
            }
            if (!ipv4Set) {
                throw new IllegalArgumentException("host " + name + ": no ipv4 address");
            }
            return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeed, dcqcn);
        }
    }
}
