package io.rocelab.codec.lldp;

import io.rocelab.codec.header.MacAddress;
import java.util.Objects;

/**
 * A Chassis ID or Port ID (IEEE 802.1AB-2016 8.5.2, 8.5.3): a subtype saying what the identifier
 * is, and the identifier as text: {@code aa:bb:cc:dd:ee:ff} for a MAC address (chassis subtype 4,
 * port subtype 3), dotted decimal for an IPv4 network address (chassis 5, port 4), otherwise the
 * identifier's bytes as UTF-8 (an interface name, 5; locally assigned, 7; ...), which is how
 * lldpctl prints them ({@code mac 02:...}, {@code ifname Ethernet0}, {@code local Ethernet1/1}).
 *
 * @param subtype 1..255
 * @param value   the identifier, 1..255 bytes once encoded
 */
public record LldpId(int subtype, String value) {
    /** Chassis ID subtype 4: a MAC address. */
    public static final int CHASSIS_MAC = 4;
    /** Chassis ID subtype 5: a network address (family byte, then the address). */
    public static final int CHASSIS_NETWORK_ADDRESS = 5;
    /** Chassis ID subtype 6: an interface name. */
    public static final int CHASSIS_INTERFACE_NAME = 6;
    /** Chassis ID subtype 7: locally assigned. */
    public static final int CHASSIS_LOCAL = 7;
    /** Port ID subtype 1: the interface alias (ifAlias). */
    public static final int PORT_INTERFACE_ALIAS = 1;
    /** Port ID subtype 3: a MAC address. */
    public static final int PORT_MAC = 3;
    /** Port ID subtype 4: a network address. */
    public static final int PORT_NETWORK_ADDRESS = 4;
    /** Port ID subtype 5: the interface name (ifName). */
    public static final int PORT_INTERFACE_NAME = 5;
    /** Port ID subtype 7: locally assigned (SONiC's lldpmgrd: {@code portidsubtype local <alias>}). */
    public static final int PORT_LOCAL = 7;

    public LldpId {
        if (subtype < 1 || subtype > 255) {
            throw new IllegalArgumentException("ID subtype must be 1..255: " + subtype);
        }
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("an LLDP ID is at least one byte");
        }
    }

    /** @return a Chassis ID of subtype MAC address */
    public static LldpId chassisMac(long mac) {
        return new LldpId(CHASSIS_MAC, MacAddress.toString(mac));
    }

    /** @return a Port ID of subtype MAC address */
    public static LldpId portMac(long mac) {
        return new LldpId(PORT_MAC, MacAddress.toString(mac));
    }

    /** @return a Port ID of subtype interface name */
    public static LldpId portName(String name) {
        return new LldpId(PORT_INTERFACE_NAME, name);
    }

    /** @return a Port ID of subtype locally assigned */
    public static LldpId portLocal(String id) {
        return new LldpId(PORT_LOCAL, id);
    }

    /**
     * @param chassis a Chassis ID (else a Port ID): the two number their subtypes differently
     * @return the subtype's name as lldpctl prints it before the value ({@code mac}, {@code ifname},
     *         {@code local}, {@code ip}, {@code ifalias})
     */
    public String kind(boolean chassis) {
        if (isMac(chassis)) {
            return "mac";
        }
        if (isNetworkAddress(chassis)) {
            return "ip";
        }
        if (chassis ? subtype == CHASSIS_INTERFACE_NAME : subtype == PORT_INTERFACE_NAME) {
            return "ifname";
        }
        if (subtype == CHASSIS_LOCAL) {
            return "local";
        }
        if (chassis ? subtype == 2 : subtype == PORT_INTERFACE_ALIAS) {
            return "ifalias";
        }
        return "unhandled";
    }

    boolean isMac(boolean chassis) {
        return subtype == (chassis ? CHASSIS_MAC : PORT_MAC);
    }

    boolean isNetworkAddress(boolean chassis) {
        return subtype == (chassis ? CHASSIS_NETWORK_ADDRESS : PORT_NETWORK_ADDRESS);
    }
}
