package io.rocelab.perftest.oob;

import io.rocelab.perftest.CFormat;
import java.util.Objects;

/**
 * What one perftest side tells the other about a QP before traffic starts ({@code struct
 * pingpong_dest} on the wire): where to send (LID, QPN, GID), which PSN to expect, how many reads
 * it may have outstanding, and — for RDMA — the rkey and virtual address of its buffer.
 *
 * <p>On the wire it is C text, {@code "%04x:%04x:%06x:%06x:%08x:%016llx:"} (LID, out_reads, QPN,
 * PSN, rkey, vaddr), then the 16 GID bytes each as {@code "%02x:"}, then {@code "%08x:"} (the SRQ
 * number) and a NUL: always {@value #WIRE_SIZE} bytes. Without a GID (InfiniBand without
 * {@code -x}) perftest sends the shorter {@code "%04x:%04x:%06x:%06x:%08x:%016llx:%08x"}, NUL
 * included {@value #WIRE_SIZE_NO_GID} bytes.
 *
 * @param lid      local identifier, 0 on RoCE
 * @param outReads outstanding RDMA reads/atomics this side accepts (1 for send/write tests)
 * @param qpn      24-bit QP number
 * @param psn      24-bit first packet sequence number
 * @param rkey     32-bit remote key of the buffer (0 for send tests)
 * @param vaddr    virtual address of the buffer
 * @param gid      the port's GID, or null for the record without one
 * @param srqn     32-bit SRQ number (0 unless an SRQ/XRC/DC is used)
 */
public record KeyRecord(int lid, int outReads, int qpn, int psn, long rkey, long vaddr, Gid gid, long srqn) {

    /** Bytes of the record with a GID ({@code KEY_MSG_SIZE_GID}). */
    public static final int WIRE_SIZE = 108;
    /** Bytes of the record without a GID ({@code KEY_MSG_SIZE}). */
    public static final int WIRE_SIZE_NO_GID = 59;
    /**
     * Bytes of the binary record perftest sends over its rdma_cm QP ({@code -R}): the C struct
     * {@code pingpong_dest} itself, each integer big-endian ({@code rdma_write_keys}).
     */
    public static final int STRUCT_SIZE = 56;

    private static final String NAME = "perftest key record";

    public KeyRecord {
        check("LID", lid, 0xffff);
        check("out_reads", outReads, 0xffff);
        check("QPN", qpn, 0xffffff);
        check("PSN", psn, 0xffffff);
        check("rkey", rkey, 0xffffffffL);
        check("SRQN", srqn, 0xffffffffL);
    }

    private static void check(String field, long value, long max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(field + " must be between 0 and 0x" + Long.toHexString(max)
                    + ", got 0x" + Long.toHexString(value));
        }
    }

    /** True when the record carries a GID, and so is the 108-byte form. */
    public boolean hasGid() {
        return gid != null;
    }

    /** The size of this record on the wire. */
    public int wireSize() {
        return hasGid() ? WIRE_SIZE : WIRE_SIZE_NO_GID;
    }

    /** The wire form: the text perftest's {@code sprintf} produces, NUL included. */
    public byte[] encode() {
        StringBuilder sb = new StringBuilder(WIRE_SIZE);
        sb.append(CFormat.hex(lid, 4)).append(':')
                .append(CFormat.hex(outReads, 4)).append(':')
                .append(CFormat.hex(qpn, 6)).append(':')
                .append(CFormat.hex(psn, 6)).append(':')
                .append(CFormat.hex(rkey, 8)).append(':')
                .append(CFormat.hex(vaddr, 16)).append(':');
        if (gid != null) {
            for (int i = 0; i < Gid.LENGTH; i++) {
                sb.append(CFormat.hex(gid.byteAt(i), 2)).append(':');
            }
            sb.append(CFormat.hex(srqn, 8)).append(':');
        } else {
            sb.append(CFormat.hex(srqn, 8));
        }
        return HexFields.withNul(sb.toString());
    }

    /**
     * The binary form perftest sends with {@code -R} ({@code struct pingpong_dest}, 56 bytes):
     * LID, out_reads, QPN, PSN and rkey as 4-byte big-endian integers, 4 bytes of alignment
     * padding (sent as zeros), the 8-byte big-endian vaddr, the 16 GID bytes (zeros when the
     * record has none), then the SRQ number and the GID index, 4 bytes each.
     *
     * @param gidIndex the sender's GID index (perftest's {@code gid_index}; it is not read back)
     */
    public byte[] encodeStruct(int gidIndex) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(STRUCT_SIZE);
        b.putInt(lid).putInt(outReads).putInt(qpn).putInt(psn).putInt((int) rkey).putInt(0).putLong(vaddr);
        b.put(gid != null ? gid.bytes() : new byte[Gid.LENGTH]);
        b.putInt((int) srqn).putInt(gidIndex);
        return b.array();
    }

    /**
     * Parses the binary form ({@code rdma_read_keys}): the fields perftest reads back, with the
     * SRQ number, which perftest leaves out, as 0.
     */
    public static KeyRecord decodeStruct(byte[] wire) {
        Objects.requireNonNull(wire, "wire");
        if (wire.length != STRUCT_SIZE) {
            throw new OobFormatException(NAME + " (binary, -R) must be " + STRUCT_SIZE + " bytes, got " + wire.length);
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(wire);
        int lid = b.getInt();
        int outReads = b.getInt();
        int qpn = b.getInt();
        int psn = b.getInt();
        long rkey = b.getInt() & 0xffffffffL;
        b.getInt();
        long vaddr = b.getLong();
        byte[] raw = new byte[Gid.LENGTH];
        b.get(raw);
        return new KeyRecord(lid & 0xffff, outReads & 0xffff, qpn & 0xffffff, psn & 0xffffff, rkey, vaddr,
                Gid.of(raw), 0);
    }

    /** Parses the 108-byte form; every field must have its exact width and separator. */
    public static KeyRecord decode(byte[] wire) {
        return decode(wire, true);
    }

    /**
     * Parses either form.
     *
     * @param withGid which form the peer sends; perftest assumes the peer uses a GID exactly when
     *                it uses one itself
     */
    public static KeyRecord decode(byte[] wire, boolean withGid) {
        Objects.requireNonNull(wire, "wire");
        HexFields f = HexFields.of(NAME, wire, withGid ? WIRE_SIZE : WIRE_SIZE_NO_GID);
        int lid = (int) f.hex("LID", 4);
        f.expect(':', "LID");
        int outReads = (int) f.hex("out_reads", 4);
        f.expect(':', "out_reads");
        int qpn = (int) f.hex("QPN", 6);
        f.expect(':', "QPN");
        int psn = (int) f.hex("PSN", 6);
        f.expect(':', "PSN");
        long rkey = f.hex("rkey", 8);
        f.expect(':', "rkey");
        long vaddr = f.hex("vaddr", 16);
        f.expect(':', "vaddr");
        Gid gid = null;
        if (withGid) {
            byte[] raw = new byte[Gid.LENGTH];
            for (int i = 0; i < Gid.LENGTH; i++) {
                raw[i] = (byte) f.hex("GID[" + i + "]", 2);
                f.expect(':', "GID[" + i + "]");
            }
            gid = Gid.of(raw);
        }
        long srqn = f.hex("SRQN", 8);
        if (withGid) {
            f.expect(':', "SRQN");
        }
        f.expect('\0', "the record");
        f.end();
        return new KeyRecord(lid, outReads, qpn, psn, rkey, vaddr, gid, srqn);
    }
}
