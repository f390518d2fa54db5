package io.rocelab.codec.ib;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A BTH opcode (IBA 9.2.1, Table 38), as an "open enum": every one of the 256 values has an
 * instance, so an opcode this table does not know still survives a decode/encode round trip (its
 * bytes after the BTH are carried as payload).
 *
 * <p>The instance is the single source of truth for parsing and building: which extension headers
 * follow the BTH and at which offsets, and what the operation means (FIRST/MIDDLE/LAST/ONLY,
 * request or response, SEND/WRITE/READ/ATOMIC, immediate/invalidate). Linux rxe keeps the same
 * table as data ({@code rxe_opcode.c}); this one is checked against the IBA by a test.
 */
public final class Opcode {
    // Meaning flags.
    public static final int FIRST = 1;
    public static final int MIDDLE = 1 << 1;
    public static final int LAST = 1 << 2;
    public static final int ONLY = 1 << 3;
    /** Sent by the requester (C9-1: request packets carry PSNs of the requester's sequence). */
    public static final int REQUEST = 1 << 4;
    /** Sent by the responder: acknowledgements and RDMA READ / atomic responses. */
    public static final int RESPONSE = 1 << 5;
    public static final int SEND = 1 << 6;
    public static final int WRITE = 1 << 7;
    public static final int READ = 1 << 8;
    public static final int ATOMIC = 1 << 9;
    public static final int IMMEDIATE = 1 << 10;
    public static final int INVALIDATE = 1 << 11;
    public static final int ACK = 1 << 12;
    public static final int FLUSH = 1 << 13;
    public static final int ATOMIC_WRITE = 1 << 14;
    /** The packet may carry a payload (data packets and READ responses). */
    public static final int PAYLOAD = 1 << 15;
    public static final int CONGESTION_NOTIFICATION = 1 << 16;

    /** Bytes in the base transport header. */
    public static final int BTH_LENGTH = 12;

    public static final int RC_BASE = 0x00;
    public static final int UC_BASE = 0x20;
    public static final int RD_BASE = 0x40;
    public static final int UD_BASE = 0x60;
    /** RoCEv2 congestion notification packet (RoCEv2 Annex A17.9.3). */
    public static final int CNP_CODE = 0x81;

    private static final Opcode[] TABLE = new Opcode[256];

    static {
        for (int code = 0; code < 256; code++) {
            TABLE[code] = OpcodeTable.define(code);
        }
    }

    public static final Opcode RC_SEND_FIRST = of(0x00);
    public static final Opcode RC_SEND_MIDDLE = of(0x01);
    public static final Opcode RC_SEND_LAST = of(0x02);
    public static final Opcode RC_SEND_LAST_WITH_IMMEDIATE = of(0x03);
    public static final Opcode RC_SEND_ONLY = of(0x04);
    public static final Opcode RC_SEND_ONLY_WITH_IMMEDIATE = of(0x05);
    public static final Opcode RC_RDMA_WRITE_FIRST = of(0x06);
    public static final Opcode RC_RDMA_WRITE_MIDDLE = of(0x07);
    public static final Opcode RC_RDMA_WRITE_LAST = of(0x08);
    public static final Opcode RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = of(0x09);
    public static final Opcode RC_RDMA_WRITE_ONLY = of(0x0A);
    public static final Opcode RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = of(0x0B);
    public static final Opcode RC_RDMA_READ_REQUEST = of(0x0C);
    public static final Opcode RC_RDMA_READ_RESPONSE_FIRST = of(0x0D);
    public static final Opcode RC_RDMA_READ_RESPONSE_MIDDLE = of(0x0E);
    public static final Opcode RC_RDMA_READ_RESPONSE_LAST = of(0x0F);
    public static final Opcode RC_RDMA_READ_RESPONSE_ONLY = of(0x10);
    public static final Opcode RC_ACKNOWLEDGE = of(0x11);
    public static final Opcode RC_ATOMIC_ACKNOWLEDGE = of(0x12);
    public static final Opcode RC_COMPARE_SWAP = of(0x13);
    public static final Opcode RC_FETCH_ADD = of(0x14);
    public static final Opcode RC_SEND_LAST_WITH_INVALIDATE = of(0x16);
    public static final Opcode RC_SEND_ONLY_WITH_INVALIDATE = of(0x17);
    public static final Opcode RC_FLUSH = of(0x1C);
    public static final Opcode RC_ATOMIC_WRITE = of(0x1D);
    public static final Opcode UC_SEND_FIRST = of(0x20);
    public static final Opcode UC_SEND_MIDDLE = of(0x21);
    public static final Opcode UC_SEND_LAST = of(0x22);
    public static final Opcode UC_SEND_LAST_WITH_IMMEDIATE = of(0x23);
    public static final Opcode UC_SEND_ONLY = of(0x24);
    public static final Opcode UC_SEND_ONLY_WITH_IMMEDIATE = of(0x25);
    public static final Opcode UC_RDMA_WRITE_FIRST = of(0x26);
    public static final Opcode UC_RDMA_WRITE_MIDDLE = of(0x27);
    public static final Opcode UC_RDMA_WRITE_LAST = of(0x28);
    public static final Opcode UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = of(0x29);
    public static final Opcode UC_RDMA_WRITE_ONLY = of(0x2A);
    public static final Opcode UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = of(0x2B);
    public static final Opcode UD_SEND_ONLY = of(0x64);
    public static final Opcode UD_SEND_ONLY_WITH_IMMEDIATE = of(0x65);
    public static final Opcode CNP = of(CNP_CODE);

    private final int code;
    private final String name;
    private final Transport transport;
    private final int flags;
    private final int headerMask;
    private final boolean known;
    /** Offset of each {@link ExtHeader} from the start of the BTH, or -1. */
    private final int[] offsets = new int[ExtHeader.all().length];
    private final int headerLength;
    private final List<ExtHeader> headers;

    Opcode(int code, String name, Transport transport, int flags, int headerMask, boolean known) {
        this.code = code;
        this.name = name;
        this.transport = transport;
        this.flags = flags;
        this.headerMask = headerMask;
        this.known = known;
        int offset = BTH_LENGTH;
        List<ExtHeader> list = new ArrayList<>();
        // ExtHeader's declaration order is the IBA wire order, so walking it lays headers out.
        for (ExtHeader h : ExtHeader.all()) {
            if ((headerMask & h.bit()) != 0) {
                offsets[h.ordinal()] = offset;
                offset += h.length();
                list.add(h);
            } else {
                offsets[h.ordinal()] = -1;
            }
        }
        this.headerLength = offset;
        this.headers = Collections.unmodifiableList(list);
    }

    /** The opcode for a BTH opcode byte; never null. */
    public static Opcode of(int code) {
        return TABLE[code & 0xFF];
    }

    public int code() {
        return code;
    }

    /** For example {@code RC_RDMA_WRITE_ONLY}, or {@code UNKNOWN_0x5A}. */
    public String name() {
        return name;
    }

    public Transport transport() {
        return transport;
    }

    /** Whether the IBA (or RoCEv2) defines this opcode and this table knows its layout. */
    public boolean isKnown() {
        return known;
    }

    public boolean has(int flag) {
        return (flags & flag) == flag;
    }

    public int flags() {
        return flags;
    }

    public boolean hasHeader(ExtHeader h) {
        return (headerMask & h.bit()) != 0;
    }

    /** Offset of {@code h} from the start of the BTH, or -1 when the opcode does not carry it. */
    public int offsetOf(ExtHeader h) {
        return offsets[h.ordinal()];
    }

    /** BTH plus all extension headers: the offset of the payload from the start of the BTH. */
    public int headerLength() {
        return headerLength;
    }

    /** Extension headers after the BTH, in wire order. */
    public List<ExtHeader> headers() {
        return headers;
    }

    @Override
    public String toString() {
        return name;
    }
}
