package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** 48-bit MAC addresses as {@code long} values (no allocation on the data path) and text. */
public final class MacAddress {
    public static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    /** IEEE 802.1Q-2018 Table 8-1: the MAC Control / PFC destination, never forwarded by bridges. */
    public static final long PAUSE_MULTICAST = 0x0180_C200_0001L;

    private MacAddress() {
    }

    public static long get(ByteBuf buf, int index) {
        return ((long) buf.getUnsignedShort(index) << 32) | buf.getUnsignedInt(index + 2);
    }

    public static void set(ByteBuf buf, int index, long mac) {
        buf.setShort(index, (int) (mac >>> 32));
        buf.setInt(index + 2, (int) mac);
    }

    public static boolean isMulticast(long mac) {
        return (mac & 0x0100_0000_0000L) != 0;
    }

    /** Parses {@code 0c:42:a1:00:00:01} (or with dashes). */
    public static long parse(String text) {
        String[] parts = text.trim().split("[:-]");
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address: '" + text + "'");
        }
        long mac = 0;
        for (String p : parts) {
            if (p.length() < 1 || p.length() > 2) {
                throw new IllegalArgumentException("not a MAC address: '" + text + "'");
            }
            try {
                mac = (mac << 8) | Integer.parseInt(p, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a MAC address: '" + text + "'");
            }
        }
        return mac;
    }

    public static String toString(long mac) {
        StringBuilder sb = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            int b = (int) (mac >>> shift) & 0xFF;
            sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            if (shift > 0) {
                sb.append(':');
            }
        }
        return sb.toString();
    }
}
