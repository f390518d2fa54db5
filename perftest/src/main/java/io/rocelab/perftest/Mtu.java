package io.rocelab.perftest;

/**
 * An InfiniBand path MTU ({@code enum ibv_mtu}). The enum value, not the byte count, is what
 * perftest sends to its peer ("3" for 1024 bytes), so both are kept.
 */
public enum Mtu {
    MTU_256(1, 256),
    MTU_512(2, 512),
    MTU_1024(3, 1024),
    MTU_2048(4, 2048),
    MTU_4096(5, 4096);

    /** What rocelab assumes for a port when nothing else is known: rxe's MTU on a 1500-byte netdev. */
    public static final Mtu DEFAULT = MTU_1024;

    private final int ibvValue;
    private final int bytes;

    Mtu(int ibvValue, int bytes) {
        this.ibvValue = ibvValue;
        this.bytes = bytes;
    }

    /** The {@code IBV_MTU_*} value: 1 for 256 bytes up to 5 for 4096 bytes. */
    public int ibvValue() {
        return ibvValue;
    }

    public int bytes() {
        return bytes;
    }

    /** The MTU of the given byte count, or null when it is not one of 256, 512, 1024, 2048, 4096. */
    public static Mtu ofBytes(long bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        return null;
    }

    /** The MTU of the given {@code IBV_MTU_*} value, or null when the value is not 1 to 5. */
    public static Mtu ofIbvValue(int value) {
        for (Mtu m : values()) {
            if (m.ibvValue == value) {
                return m;
            }
        }
        return null;
    }

    /** The smaller of two MTUs: what two peers with different MTUs must both use. */
    public Mtu min(Mtu other) {
        return bytes <= other.bytes ? this : other;
    }
}
