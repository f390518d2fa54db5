package io.rocelab.topology.model;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.BondMode;
import io.rocelab.nic.FlowControlMode;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.dcb.DcbSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A host with one soft NIC, as {@code ip link} / {@code ip addr} would describe its port: port 1,
 * {@value #PORT}, and on a dual-port NIC port 2, {@value #PORT2} ({@link SecondPort}: its own
 * addresses, or bonded with port 1).
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
 * @param port2                  the NIC's second port, or null for a single-port NIC
 * @param pauseResponse          how long the NIC takes to act on a received PFC XOFF
 *                               ({@link PauseResponse#IEEE}, the standard's bound for its speed, unless set)
 * @param flowControl            the NIC's link flow control: PFC (the default) or 802.3x PAUSE
 *                               ({@link FlowControlMode}, as {@code mlnx_qos} / {@code ethtool -A} set it)
 * @param dcb                    the NIC's DCB settings (trust, PFC enable vector, ETS, DCBX willing or off;
 *                               {@link DcbSettings#DEFAULTS} unless set)
 * @param oooDataPlacement       whether the NIC's RC QPs place data out of order (mlx5dv's
 *                               {@code MLX5DV_QP_CREATE_OOO_DP}; off, rxe's in-order receive, unless set)
 * @param roceV1                 whether the NIC lists a RoCEv1 GID beside each RoCEv2 one, as mlx5 on a
 *                               ConnectX ({@code SoftNic.Builder.roceV1}; off, rxe's RoCEv2-only table, unless set)
 */
public record Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                   long linkSpeedBitsPerSecond, DcqcnParams dcqcn, SecondPort port2, PauseResponse pauseResponse,
                   FlowControlMode flowControl, DcbSettings dcb, boolean oooDataPlacement, boolean roceV1)
    implements Node {
    /** The name of a host's first (or only) port, IBA port 1. */
    public static final String PORT = "eth0";
    /** The name of a dual-port host's second port, IBA port 2. */
    public static final String PORT2 = "eth1";
    /** {@link #congestionControl()} of a NIC without congestion control. */
    public static final String CC_NONE = "none";
    /** {@link #congestionControl()} of a NIC running DCQCN. */
    public static final String CC_DCQCN = "dcqcn";

    public Host {
        Objects.requireNonNull(name, "name");
        ipv6 = List.copyOf(ipv6);
        pauseResponse = pauseResponse == null ? PauseResponse.IEEE : pauseResponse;
        flowControl = flowControl == null ? FlowControlMode.PFC : flowControl;
        dcb = dcb == null ? DcbSettings.DEFAULTS : dcb;
    }

    /** A host whose NIC lists RoCEv2 GIDs only (rxe's table). */
    public Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                long linkSpeedBitsPerSecond, DcqcnParams dcqcn, SecondPort port2, PauseResponse pauseResponse,
                FlowControlMode flowControl, DcbSettings dcb, boolean oooDataPlacement) {
        this(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2, pauseResponse,
            flowControl, dcb, oooDataPlacement, false);
    }

    /** @return the same host with RoCEv1 GIDs beside the RoCEv2 ones on its NIC, or not */
    public Host withRoceV1(boolean on) {
        return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2,
            pauseResponse, flowControl, dcb, oooDataPlacement, on);
    }

    /** A host whose NIC receives in order (rxe's way). */
    public Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                long linkSpeedBitsPerSecond, DcqcnParams dcqcn, SecondPort port2, PauseResponse pauseResponse,
                FlowControlMode flowControl, DcbSettings dcb) {
        this(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2, pauseResponse,
            flowControl, dcb, false);
    }

    /** @return the same host with out-of-order data placement on its NIC's RC QPs, or not */
    public Host withOooDataPlacement(boolean on) {
        return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2,
            pauseResponse, flowControl, dcb, on, roceV1);
    }

    /** A host whose NIC runs PFC with rocelab's default DCB settings. */
    public Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                long linkSpeedBitsPerSecond, DcqcnParams dcqcn, SecondPort port2, PauseResponse pauseResponse) {
        this(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2, pauseResponse,
            FlowControlMode.PFC, DcbSettings.DEFAULTS);
    }

    /** @return the same host with its NIC's link flow control {@code mode} */
    public Host withFlowControl(FlowControlMode mode) {
        return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2,
            pauseResponse, mode, dcb, oooDataPlacement, roceV1);
    }

    /** A host whose NIC acts on a received pause as the standard allows at its speed. */
    public Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                long linkSpeedBitsPerSecond, DcqcnParams dcqcn, SecondPort port2) {
        this(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2, PauseResponse.IEEE);
    }

    /** A single-port host. */
    public Host(String name, long mac, int ipv4, List<String> ipv6, int activeMtu, int vlanId, int pcp,
                long linkSpeedBitsPerSecond, DcqcnParams dcqcn) {
        this(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, null);
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
        return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, params, port2,
            pauseResponse, flowControl, dcb, oooDataPlacement, roceV1);
    }

    /** @return the same host with DCB settings {@code settings} on its NIC */
    public Host withDcb(DcbSettings settings) {
        return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeedBitsPerSecond, dcqcn, port2,
            pauseResponse, flowControl, Objects.requireNonNull(settings, "settings"), oooDataPlacement, roceV1);
    }

    /** @return 1, or 2 for a dual-port NIC */
    public int portCount() {
        return port2 == null ? 1 : 2;
    }

    /** @return whether the NIC's two ports are bonded */
    public boolean bonded() {
        return port2 != null && port2.bonded();
    }

    /** @return the host's ports' names: {@value #PORT}, then {@value #PORT2} on a dual-port NIC */
    public List<String> portNames() {
        return port2 == null ? List.of(PORT) : List.of(PORT, PORT2);
    }

    /** @return the IBA port number (1, 2) of the port called {@code port} */
    public int portNumber(String port) {
        if (!hasPort(port)) {
            throw new IllegalArgumentException("host " + name + " has no port '" + port + "'");
        }
        return PORT.equals(port) ? 1 : 2;
    }

    /** @return the MAC of the port called {@code port} */
    public long macOf(String port) {
        return portNumber(port) == 1 ? mac : port2.mac();
    }

    /** @return the IPv4 address of the port called {@code port} */
    public int ipv4Of(String port) {
        return portNumber(port) == 1 ? ipv4 : port2.ipv4();
    }

    /** @return the IPv6 addresses of the port called {@code port} (port 2's: port 1's when bonded, else none) */
    public List<String> ipv6Of(String port) {
        return portNumber(port) == 1 || bonded() ? ipv6 : List.of();
    }

    /** @return a builder for a host called {@code name} */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    @Override
    public boolean hasPort(String port) {
        return PORT.equals(port) || port2 != null && PORT2.equals(port);
    }

    /** @return the host's first port as a link end */
    public Attachment port() {
        return Attachment.host(name);
    }

    /** @return the host's port called {@code port} as a link end */
    public Attachment port(String port) {
        portNumber(port);
        return new Attachment(name, port);
    }

    @Override
    public String toString() {
        return "host " + name + " " + MacAddress.toString(mac) + " " + Ipv4.toString(ipv4)
            + (ipv6.isEmpty() ? "" : " " + String.join(" ", ipv6))
            + (port2 == null ? "" : port2.bonded() ? ", " + PORT + "+" + PORT2 + " bonded " + port2.bond().configName()
                : ", " + PORT2 + " " + MacAddress.toString(port2.mac()) + " " + Ipv4.toString(port2.ipv4()));
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
        private PauseResponse pauseResponse = PauseResponse.IEEE;
        private DcbSettings dcb = DcbSettings.DEFAULTS;
        private boolean oooDataPlacement;
        private boolean roceV1;
        private boolean dualPort;
        private long mac2 = -1;
        private int ipv4Port2;
        private boolean ipv4Port2Set;
        private BondMode bond;
        private boolean lacpFast;

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
         * How long the NIC takes to act on a received PFC XOFF ({@link PauseResponse#IEEE}, the
         * standard's bound for its speed, by default).
         */
        public Builder pauseResponse(PauseResponse response) {
            pauseResponse = Objects.requireNonNull(response, "response");
            return this;
        }

        /** Out-of-order data placement on the NIC's RC QPs (off unless set). */
        /** RoCEv1 GIDs beside the RoCEv2 ones on the NIC ({@link Host#roceV1()}). */
        public Builder roceV1(boolean on) {
            roceV1 = on;
            return this;
        }

        public Builder oooDataPlacement(boolean on) {
            oooDataPlacement = on;
            return this;
        }

        /** The NIC's DCB settings ({@link DcbSettings#DEFAULTS} unless set). */
        public Builder dcb(DcbSettings settings) {
            dcb = Objects.requireNonNull(settings, "settings");
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

        /**
         * A second port, {@value #PORT2}: a dual-port NIC. Its MAC and IPv4 address are port 1's with
         * {@link SecondPort#DEFAULT_MAC_XOR} and {@link SecondPort#DEFAULT_IPV4_XOR} XORed in
         * (02:00:00:00:00:01 and 10.0.0.1 give 02:02:00:00:00:01 and 10.128.0.1) unless given.
         */
        public Builder secondPort() {
            dualPort = true;
            return this;
        }

        /** Port 2's MAC (implies {@link #secondPort}). */
        public Builder mac2(long address) {
            if (MacAddress.isMulticast(address) || address == 0) {
                throw new IllegalArgumentException("host " + name + ": mac2 must be unicast: " + MacAddress.toString(address));
            }
            dualPort = true;
            mac2 = address;
            return this;
        }

        public Builder mac2(String address) {
            return mac2(MacAddress.parse(address));
        }

        /** Port 2's IPv4 address (implies {@link #secondPort}). */
        public Builder ipv4Port2(int address) {
            dualPort = true;
            ipv4Port2 = address;
            ipv4Port2Set = true;
            return this;
        }

        public Builder ipv4Port2(String address) {
            return ipv4Port2(Ipv4.parse(address));
        }

        /** Bonds the two ports (implies {@link #secondPort}): both behind port 1's MAC and addresses. */
        public Builder bond(BondMode mode) {
            dualPort = true;
            bond = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** LACP's rate of an 802.3ad bond: {@code fast} (every second, out after 3 s) or {@code slow} (the default). */
        public Builder lacpRate(String rate) {
            if (!"fast".equals(rate) && !"slow".equals(rate)) {
                throw new IllegalArgumentException("host " + name + ": lacp rate must be fast or slow: " + rate);
            }
            lacpFast = "fast".equals(rate);
            return this;
        }

        /** @throws IllegalArgumentException if the MAC or the IPv4 address was not given, or port 2's are given to a bond */
        public Host build() {
            if (mac < 0) {
                throw new IllegalArgumentException("host " + name + ": no mac");
            }
            if (!ipv4Set) {
                throw new IllegalArgumentException("host " + name + ": no ipv4 address");
            }
            SecondPort two = null;
            if (dualPort) {
                if (bond != null && (mac2 >= 0 || ipv4Port2Set)) {
                    throw new IllegalArgumentException("host " + name + ": a bond puts " + PORT2 + " behind " + PORT
                        + "'s MAC and address; it has none of its own");
                }
                if (lacpFast && bond != BondMode.LACP) {
                    throw new IllegalArgumentException("host " + name + ": a lacp rate needs an 802.3ad bond");
                }
                two = bond != null ? new SecondPort(mac, ipv4, bond, lacpFast)
                    : new SecondPort(mac2 >= 0 ? mac2 : mac ^ SecondPort.DEFAULT_MAC_XOR,
                        ipv4Port2Set ? ipv4Port2 : ipv4 ^ SecondPort.DEFAULT_IPV4_XOR, null, false);
            } else if (lacpFast) {
                throw new IllegalArgumentException("host " + name + ": a lacp rate needs an 802.3ad bond");
            }
            return new Host(name, mac, ipv4, ipv6, activeMtu, vlanId, pcp, linkSpeed, dcqcn, two, pauseResponse,
                FlowControlMode.PFC, dcb, oooDataPlacement, roceV1);
        }
    }
}
