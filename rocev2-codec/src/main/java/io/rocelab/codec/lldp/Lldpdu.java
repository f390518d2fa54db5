package io.rocelab.codec.lldp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An LLDPDU (IEEE 802.1AB-2016 clause 8): the Chassis ID, Port ID and Time To Live TLVs first and
 * in that order, then the optional basic management TLVs (Port Description 4, System Name 5,
 * System Description 6, System Capabilities 7, Management Address 8) and the IEEE 802.1
 * organizationally specific TLVs of DCBX (IEEE 802.1Qaz-2011 Annex D: ETS Configuration 9, ETS
 * Recommendation 10, PFC Configuration 11, Application Priority 12), and the End Of LLDPDU TLV.
 * Sent untagged with EtherType 0x88CC to the nearest bridge group address 01:80:C2:00:00:0E, which
 * no bridge forwards (IEEE 802.1Q Table 8-1).
 *
 * <p>Each TLV: a 7-bit type and a 9-bit length, then that many bytes. Decoding
 * ({@link #decode(ByteBuf, int, int)}) discards what 802.1AB 9.2.7.7 has a receiver discard, with an
 * {@link LldpduException}; TLVs it does not know (other organizations' TLVs, IEEE 802.1's other
 * subtypes, reserved types) are skipped, as 802.1AB has them; of several Management Address TLVs
 * the first IPv4 one is kept.
 *
 * @param chassisId         the Chassis ID TLV
 * @param portId            the Port ID TLV
 * @param ttl               seconds the receiver keeps this information, 0..65535 (0: forget it now, a shutdown)
 * @param portDescription   the Port Description TLV, or null
 * @param systemName        the System Name TLV, or null
 * @param systemDescription the System Description TLV, or null
 * @param capabilities      the System Capabilities TLV, or null
 * @param managementAddress the (IPv4) Management Address TLV, or null
 * @param dcbx              the DCBX TLVs, {@link Dcbx#NONE} for none (never null)
 */
public record Lldpdu(LldpId chassisId, LldpId portId, int ttl, String portDescription, String systemName,
                     String systemDescription, Capabilities capabilities, ManagementAddress managementAddress,
                     Dcbx dcbx) {
    /** The nearest bridge group address (IEEE 802.1AB-2016 7.1, Table 7-1). */
    public static final long NEAREST_BRIDGE = 0x0180_C200_000EL;
    /** LLDP's EtherType. */
    public static final int ETHER_TYPE = 0x88CC;
    /** TLV types (802.1AB-2016 Table 8-1). */
    public static final int TLV_END = 0;
    public static final int TLV_CHASSIS_ID = 1;
    public static final int TLV_PORT_ID = 2;
    public static final int TLV_TTL = 3;
    public static final int TLV_PORT_DESCRIPTION = 4;
    public static final int TLV_SYSTEM_NAME = 5;
    public static final int TLV_SYSTEM_DESCRIPTION = 6;
    public static final int TLV_SYSTEM_CAPABILITIES = 7;
    public static final int TLV_MANAGEMENT_ADDRESS = 8;
    public static final int TLV_ORGANIZATION_SPECIFIC = 127;
    /** Longest a TLV's information string can be (9 bits). */
    private static final int MAX_TLV = 511;
    private static final int ETS_LENGTH = 25;
    private static final int PFC_LENGTH = 6;

    /**
     * The System Capabilities TLV (802.1AB-2016 8.5.8): what the system can be, and what it is now.
     *
     * @param supported bits {@link #OTHER} ... {@link #STATION_ONLY} (and the rest of 16)
     * @param enabled   the same bits, those enabled
     */
    public record Capabilities(int supported, int enabled) {
        public static final int OTHER = 0x01;
        public static final int REPEATER = 0x02;
        /** A MAC Bridge (802.1Q C-VLAN component). */
        public static final int BRIDGE = 0x04;
        public static final int WLAN_ACCESS_POINT = 0x08;
        public static final int ROUTER = 0x10;
        public static final int TELEPHONE = 0x20;
        public static final int DOCSIS = 0x40;
        public static final int STATION_ONLY = 0x80;

        public Capabilities {
            if ((supported & ~0xFFFF) != 0 || (enabled & ~0xFFFF) != 0) {
                throw new IllegalArgumentException("capabilities are 16 bits");
            }
        }
    }

    /**
     * A Management Address TLV (802.1AB-2016 8.5.9) with an IPv4 address (address subtype 1, IANA's
     * address family numbers), the interface by its ifIndex (interface numbering subtype 2), no OID.
     *
     * @param ipv4    the address
     * @param ifIndex the interface's number, 0 for unknown
     */
    public record ManagementAddress(int ipv4, int ifIndex) {
        /** @return the address, dotted */
        public String address() {
            return (ipv4 >>> 24) + "." + ((ipv4 >>> 16) & 0xFF) + "." + ((ipv4 >>> 8) & 0xFF) + "." + (ipv4 & 0xFF);
        }
    }

    public Lldpdu {
        Objects.requireNonNull(chassisId, "chassisId");
        Objects.requireNonNull(portId, "portId");
        if (ttl < 0 || ttl > 0xFFFF) {
            throw new IllegalArgumentException("TTL must be 0..65535: " + ttl);
        }
        dcbx = dcbx == null ? Dcbx.NONE : dcbx;
    }

    /** @return a copy with {@code ttl} (0: the shutdown LLDPDU, 802.1AB-2016 9.2.7.1) */
    public Lldpdu withTtl(int newTtl) {
        return new Lldpdu(chassisId, portId, newTtl, portDescription, systemName, systemDescription, capabilities,
            managementAddress, dcbx);
    }

    /** @return a copy with the DCBX TLVs {@code d} */
    public Lldpdu withDcbx(Dcbx d) {
        return new Lldpdu(chassisId, portId, ttl, portDescription, systemName, systemDescription, capabilities,
            managementAddress, d);
    }

    // ---- encoding ----

    /** @return a whole frame: to 01:80:C2:00:00:0E from {@code srcMac}, EtherType 0x88CC, this LLDPDU, padded to 60 bytes */
    public ByteBuf frame(ByteBufAllocator alloc, long srcMac) {
        ByteBuf b = alloc.buffer(Ethernet.MIN_FRAME + 64);
        b.writerIndex(Ethernet.LENGTH);
        Ethernet.write(b, 0, NEAREST_BRIDGE, srcMac, ETHER_TYPE);
        write(b);
        while (b.writerIndex() < Ethernet.MIN_FRAME) {
            b.writeByte(0);
        }
        return b;
    }

    /** Appends the LLDPDU's TLVs, End included, at {@code b}'s writer index. */
    public void write(ByteBuf b) {
        id(b, TLV_CHASSIS_ID, chassisId, true);
        id(b, TLV_PORT_ID, portId, false);
        header(b, TLV_TTL, 2);
        b.writeShort(ttl);
        text(b, TLV_PORT_DESCRIPTION, portDescription);
        text(b, TLV_SYSTEM_NAME, systemName);
        text(b, TLV_SYSTEM_DESCRIPTION, systemDescription);
        if (capabilities != null) {
            header(b, TLV_SYSTEM_CAPABILITIES, 4);
            b.writeShort(capabilities.supported());
            b.writeShort(capabilities.enabled());
        }
        if (managementAddress != null) {
            header(b, TLV_MANAGEMENT_ADDRESS, 12);
            b.writeByte(5); // address string length: subtype and 4 bytes
            b.writeByte(1); // IANA address family 1: IPv4
            b.writeInt(managementAddress.ipv4());
            b.writeByte(2); // interface numbering: ifIndex
            b.writeInt(managementAddress.ifIndex());
            b.writeByte(0); // no OID
        }
        if (dcbx.etsConfiguration() != null) {
            ets(b, Dcbx.SUBTYPE_ETS_CONFIGURATION, dcbx.etsConfiguration());
        }
        if (dcbx.etsRecommendation() != null) {
            ets(b, Dcbx.SUBTYPE_ETS_RECOMMENDATION, dcbx.etsRecommendation());
        }
        if (dcbx.pfc() != null) {
            DcbxPfc p = dcbx.pfc();
            org(b, Dcbx.SUBTYPE_PFC_CONFIGURATION, PFC_LENGTH);
            b.writeByte((p.willing() ? 0x80 : 0) | (p.mbc() ? 0x40 : 0) | (p.capability() & 0x0F));
            b.writeByte(p.enableMask());
        }
        if (dcbx.applications() != null) {
            List<DcbxApp> apps = dcbx.applications();
            if (5 + 3 * apps.size() > MAX_TLV) {
                throw new IllegalArgumentException("too many application priority entries: " + apps.size());
            }
            org(b, Dcbx.SUBTYPE_APPLICATION_PRIORITY, 5 + 3 * apps.size());
            b.writeByte(0);
            for (DcbxApp a : apps) {
                b.writeByte(a.priority() << 5 | a.selector());
                b.writeShort(a.protocol());
            }
        }
        header(b, TLV_END, 0);
    }

    private static void header(ByteBuf b, int type, int length) {
        b.writeShort(type << 9 | length);
    }

    private static void id(ByteBuf b, int type, LldpId id, boolean chassis) {
        byte[] v;
        if (id.isMac(chassis)) {
            long mac = MacAddress.parse(id.value());
            v = new byte[6];
            for (int i = 0; i < 6; i++) {
                v[i] = (byte) (mac >>> (40 - 8 * i));
            }
        } else if (id.isNetworkAddress(chassis)) {
            int a = ipv4(id.value());
            v = new byte[] {1, (byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a};
        } else {
            v = id.value().getBytes(StandardCharsets.UTF_8);
        }
        if (v.length > 255) {
            throw new IllegalArgumentException("an LLDP ID is at most 255 bytes: " + id.value());
        }
        header(b, type, 1 + v.length);
        b.writeByte(id.subtype());
        b.writeBytes(v);
    }

    private static void text(ByteBuf b, int type, String s) {
        if (s == null) {
            return;
        }
        byte[] v = s.getBytes(StandardCharsets.UTF_8);
        if (v.length > 255) {
            throw new IllegalArgumentException("TLV " + type + " is at most 255 bytes: " + s);
        }
        header(b, type, v.length);
        b.writeBytes(v);
    }

    private static void org(ByteBuf b, int subtype, int length) {
        header(b, TLV_ORGANIZATION_SPECIFIC, length);
        b.writeMedium(Dcbx.IEEE_8021_OUI);
        b.writeByte(subtype);
    }

    private static void ets(ByteBuf b, int subtype, DcbxEts e) {
        org(b, subtype, ETS_LENGTH);
        if (subtype == Dcbx.SUBTYPE_ETS_CONFIGURATION) {
            b.writeByte((e.willing() ? 0x80 : 0) | (e.cbs() ? 0x40 : 0) | (e.maxTcs() & 0x07));
        } else {
            b.writeByte(0);
        }
        int[] p = e.priorityToTc();
        for (int i = 0; i < 8; i += 2) {
            b.writeByte(p[i] << 4 | p[i + 1]);
        }
        for (int v : e.tcBandwidth()) {
            b.writeByte(v);
        }
        for (int v : e.tsa()) {
            b.writeByte(v);
        }
    }

    // ---- decoding ----

    /** @return whether {@code frame} (at its reader index) is untagged with LLDP's EtherType */
    public static boolean isLldp(ByteBuf frame) {
        return frame.readableBytes() >= Ethernet.LENGTH
            && Ethernet.etherType(frame, frame.readerIndex()) == ETHER_TYPE;
    }

    /**
     * @param frame a whole frame at its reader index, Ethernet header first
     * @return its LLDPDU
     * @throws LldpduException if it is not LLDP or the LLDPDU is to be discarded
     */
    public static Lldpdu ofFrame(ByteBuf frame) {
        if (!isLldp(frame)) {
            throw new LldpduException("not an LLDP frame (EtherType is not 0x88CC)");
        }
        int start = frame.readerIndex();
        return decode(frame, start + Ethernet.LENGTH, frame.readableBytes() - Ethernet.LENGTH);
    }

    /**
     * Reads the LLDPDU of {@code len} bytes at {@code off} (after the Ethernet header); the reader
     * index does not move. Reading stops at the End TLV, or at the end of the bytes (802.1AB-2016
     * makes the End TLV optional; padding reads as End).
     *
     * @throws LldpduException if 802.1AB-2016 9.2.7.7 has the LLDPDU discarded: the message says why
     */
    public static Lldpdu decode(ByteBuf b, int off, int len) {
        int end = off + len;
        int pos = off;
        LldpId chassis = null;
        LldpId port = null;
        int ttl = -1;
        String portDescription = null;
        String systemName = null;
        String systemDescription = null;
        Capabilities caps = null;
        ManagementAddress mgmt = null;
        DcbxEts etsConf = null;
        DcbxEts etsReco = null;
        DcbxPfc pfc = null;
        List<DcbxApp> apps = null;
        int index = 0;
        while (pos < end) {
            if (end - pos < 2) {
                throw new LldpduException("TLV " + (index + 1) + ": a header needs 2 bytes, " + (end - pos) + " left");
            }
            int h = b.getUnsignedShort(pos);
            int type = h >>> 9;
            int length = h & 0x1FF;
            int v = pos + 2;
            if (v + length > end) {
                throw new LldpduException("TLV " + (index + 1) + " (type " + type + "): length " + length
                    + " runs past the LLDPDU's " + len + " bytes");
            }
            if (type == TLV_END) {
                break;
            }
            if (index < 3) {
                int expected = index + 1;
                if (type != expected) {
                    throw new LldpduException("TLV " + expected + " must be " + mandatory(expected) + ", not type "
                        + type);
                }
            } else if (type <= TLV_TTL) {
                throw new LldpduException("a second " + mandatory(type) + " TLV (TLV " + (index + 1) + ")");
            }
            switch (type) {
                case TLV_CHASSIS_ID -> chassis = readId(b, v, length, true);
                case TLV_PORT_ID -> port = readId(b, v, length, false);
                case TLV_TTL -> {
                    if (length < 2) {
                        throw new LldpduException("Time To Live TLV of length " + length + ", needs 2");
                    }
                    ttl = b.getUnsignedShort(v);
                }
                case TLV_PORT_DESCRIPTION -> portDescription = string(b, v, length);
                case TLV_SYSTEM_NAME -> systemName = string(b, v, length);
                case TLV_SYSTEM_DESCRIPTION -> systemDescription = string(b, v, length);
                case TLV_SYSTEM_CAPABILITIES -> {
                    if (length != 4) {
                        throw new LldpduException("System Capabilities TLV of length " + length + ", must be 4");
                    }
                    caps = new Capabilities(b.getUnsignedShort(v), b.getUnsignedShort(v + 2));
                }
                case TLV_MANAGEMENT_ADDRESS -> {
                    ManagementAddress m = readManagement(b, v, length);
                    if (mgmt == null) {
                        mgmt = m;
                    }
                }
                case TLV_ORGANIZATION_SPECIFIC -> {
                    if (length < 4) {
                        throw new LldpduException("organizationally specific TLV of length " + length + ", needs 4");
                    }
                    if (b.getUnsignedMedium(v) == Dcbx.IEEE_8021_OUI) {
                        int subtype = b.getUnsignedByte(v + 3);
                        int info = v + 4;
                        switch (subtype) {
                            case Dcbx.SUBTYPE_ETS_CONFIGURATION -> etsConf = readEts(b, info, length, true);
                            case Dcbx.SUBTYPE_ETS_RECOMMENDATION -> etsReco = readEts(b, info, length, false);
                            case Dcbx.SUBTYPE_PFC_CONFIGURATION -> pfc = readPfc(b, info, length);
                            case Dcbx.SUBTYPE_APPLICATION_PRIORITY -> apps = readApps(b, info, length);
                            default -> {
                                // another IEEE 802.1 TLV (port VLAN, link aggregation, ...): not modelled
                            }
                        }
                    }
                }
                default -> {
                    // reserved types 9..126: skipped (802.1AB-2016 9.2.7.7.3)
                }
            }
            pos = v + length;
            index++;
        }
        if (index < 3) {
            throw new LldpduException("an LLDPDU starts with Chassis ID, Port ID and Time To Live; only "
                + index + " TLV(s) before the end");
        }
        Dcbx d = etsConf == null && etsReco == null && pfc == null && apps == null ? Dcbx.NONE
            : new Dcbx(etsConf, etsReco, pfc, apps);
        return new Lldpdu(chassis, port, ttl, portDescription, systemName, systemDescription, caps, mgmt, d);
    }

    private static String mandatory(int type) {
        return switch (type) {
            case TLV_CHASSIS_ID -> "Chassis ID";
            case TLV_PORT_ID -> "Port ID";
            default -> "Time To Live";
        };
    }

    private static LldpId readId(ByteBuf b, int v, int length, boolean chassis) {
        String what = chassis ? "Chassis ID" : "Port ID";
        if (length < 2 || length > 256) {
            throw new LldpduException(what + " TLV of length " + length + ", must be 2..256");
        }
        int subtype = b.getUnsignedByte(v);
        if (subtype == 0) {
            throw new LldpduException(what + " subtype 0 is reserved");
        }
        int n = length - 1;
        if (subtype == (chassis ? LldpId.CHASSIS_MAC : LldpId.PORT_MAC) && n == 6) {
            return new LldpId(subtype, MacAddress.toString(MacAddress.get(b, v + 1)));
        }
        if (subtype == (chassis ? LldpId.CHASSIS_NETWORK_ADDRESS : LldpId.PORT_NETWORK_ADDRESS) && n == 5
                && b.getUnsignedByte(v + 1) == 1) {
            return new LldpId(subtype, new ManagementAddress(b.getInt(v + 2), 0).address());
        }
        if (subtype == (chassis ? LldpId.CHASSIS_MAC : LldpId.PORT_MAC)) {
            throw new LldpduException(what + " of subtype MAC address has " + n + " bytes, not 6");
        }
        return new LldpId(subtype, b.toString(v + 1, n, StandardCharsets.UTF_8));
    }

    private static String string(ByteBuf b, int v, int length) {
        return b.toString(v, length, StandardCharsets.UTF_8);
    }

    private static ManagementAddress readManagement(ByteBuf b, int v, int length) {
        if (length < 9) {
            throw new LldpduException("Management Address TLV of length " + length + ", needs at least 9");
        }
        int addrLen = b.getUnsignedByte(v);
        if (addrLen < 2 || addrLen > 32 || 1 + addrLen + 6 > length) {
            throw new LldpduException("Management Address TLV: address string length " + addrLen
                + " does not fit its length " + length);
        }
        int oidLen = b.getUnsignedByte(v + 1 + addrLen + 5);
        if (1 + addrLen + 6 + oidLen != length) {
            throw new LldpduException("Management Address TLV: OID string length " + oidLen
                + " does not fit its length " + length);
        }
        int family = b.getUnsignedByte(v + 1);
        if (family != 1 || addrLen != 5) {
            return null; // IPv6 or another family: not modelled
        }
        return new ManagementAddress(b.getInt(v + 2), b.getInt(v + 1 + addrLen + 1));
    }

    private static DcbxEts readEts(ByteBuf b, int info, int length, boolean configuration) {
        if (length != ETS_LENGTH) {
            throw new LldpduException("ETS " + (configuration ? "Configuration" : "Recommendation") + " TLV of length "
                + length + ", must be " + ETS_LENGTH);
        }
        int flags = b.getUnsignedByte(info);
        int[] p = new int[8];
        for (int i = 0; i < 4; i++) {
            int x = b.getUnsignedByte(info + 1 + i);
            p[2 * i] = x >>> 4;
            p[2 * i + 1] = x & 0x0F;
        }
        int[] bw = new int[8];
        int[] tsa = new int[8];
        for (int t = 0; t < 8; t++) {
            bw[t] = b.getUnsignedByte(info + 5 + t);
            tsa[t] = b.getUnsignedByte(info + 13 + t);
        }
        try {
            if (configuration) {
                int maxTcs = flags & 0x07;
                return new DcbxEts((flags & 0x80) != 0, (flags & 0x40) != 0, maxTcs == 0 ? 8 : maxTcs, p, bw, tsa);
            }
            return new DcbxEts(false, false, 0, p, bw, tsa);
        } catch (IllegalArgumentException e) {
            throw new LldpduException("ETS " + (configuration ? "Configuration" : "Recommendation") + " TLV: "
                + e.getMessage());
        }
    }

    private static DcbxPfc readPfc(ByteBuf b, int info, int length) {
        if (length != PFC_LENGTH) {
            throw new LldpduException("PFC Configuration TLV of length " + length + ", must be " + PFC_LENGTH);
        }
        int flags = b.getUnsignedByte(info);
        return new DcbxPfc((flags & 0x80) != 0, (flags & 0x40) != 0, flags & 0x0F, b.getUnsignedByte(info + 1));
    }

    private static List<DcbxApp> readApps(ByteBuf b, int info, int length) {
        if (length < 5 || (length - 5) % 3 != 0) {
            throw new LldpduException("Application Priority TLV of length " + length + ", must be 5 + 3 per entry");
        }
        int n = (length - 5) / 3;
        List<DcbxApp> apps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int at = info + 1 + 3 * i;
            int x = b.getUnsignedByte(at);
            int selector = x & 0x07;
            if (selector == 0) {
                throw new LldpduException("Application Priority TLV entry " + (i + 1) + ": selector 0 is reserved");
            }
            apps.add(new DcbxApp(x >>> 5, selector, b.getUnsignedShort(at + 1)));
        }
        return apps;
    }

    private static int ipv4(String dotted) {
        String[] p = dotted.split("\\.");
        if (p.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: " + dotted);
        }
        int a = 0;
        for (String s : p) {
            int x = Integer.parseInt(s);
            if (x < 0 || x > 255) {
                throw new IllegalArgumentException("not an IPv4 address: " + dotted);
            }
            a = a << 8 | x;
        }
        return a;
    }
}
