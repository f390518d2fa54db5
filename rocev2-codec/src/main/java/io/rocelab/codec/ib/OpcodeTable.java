package io.rocelab.codec.ib;

import static io.rocelab.codec.ib.Opcode.ACK;
import static io.rocelab.codec.ib.Opcode.ATOMIC;
import static io.rocelab.codec.ib.Opcode.ATOMIC_WRITE;
import static io.rocelab.codec.ib.Opcode.CONGESTION_NOTIFICATION;
import static io.rocelab.codec.ib.Opcode.FIRST;
import static io.rocelab.codec.ib.Opcode.FLUSH;
import static io.rocelab.codec.ib.Opcode.IMMEDIATE;
import static io.rocelab.codec.ib.Opcode.INVALIDATE;
import static io.rocelab.codec.ib.Opcode.LAST;
import static io.rocelab.codec.ib.Opcode.MIDDLE;
import static io.rocelab.codec.ib.Opcode.ONLY;
import static io.rocelab.codec.ib.Opcode.PAYLOAD;
import static io.rocelab.codec.ib.Opcode.READ;
import static io.rocelab.codec.ib.Opcode.REQUEST;
import static io.rocelab.codec.ib.Opcode.RESPONSE;
import static io.rocelab.codec.ib.Opcode.SEND;
import static io.rocelab.codec.ib.Opcode.WRITE;

/**
 * The opcode table as data: IBA 9.2.1 Table 38 (RC, UC, UD; RD is listed by name but its RDETH
 * layout is not modelled, since no RoCE device implements RD) and RoCEv2's CNP.
 * {@link Opcode} builds its 256 instances from here.
 */
final class OpcodeTable {
    private OpcodeTable() {
    }

    private static final int DETH = ExtHeader.DETH.bit();
    private static final int FETH = ExtHeader.FETH.bit();
    private static final int RETH = ExtHeader.RETH.bit();
    private static final int ATOMIC_ETH = ExtHeader.ATOMIC_ETH.bit();
    private static final int AETH = ExtHeader.AETH.bit();
    private static final int ATOMIC_ACK_ETH = ExtHeader.ATOMIC_ACK_ETH.bit();
    private static final int IMM_DT = ExtHeader.IMM_DT.bit();
    private static final int IETH = ExtHeader.IETH.bit();
    private static final int CNP = ExtHeader.CNP.bit();

    /** One row: the low five bits of the opcode, its name, meaning flags and headers. */
    private record Row(int low, String name, int flags, int headers) {
    }

    /** The operations of IBA Table 38 by their low five bits (shared by RC, UC, RD and UD). */
    private static final Row[] OPERATIONS = {
        new Row(0x00, "SEND_FIRST", SEND | FIRST | REQUEST | PAYLOAD, 0),
        new Row(0x01, "SEND_MIDDLE", SEND | MIDDLE | REQUEST | PAYLOAD, 0),
        new Row(0x02, "SEND_LAST", SEND | LAST | REQUEST | PAYLOAD, 0),
        new Row(0x03, "SEND_LAST_WITH_IMMEDIATE", SEND | LAST | IMMEDIATE | REQUEST | PAYLOAD, IMM_DT),
        new Row(0x04, "SEND_ONLY", SEND | ONLY | REQUEST | PAYLOAD, 0),
        new Row(0x05, "SEND_ONLY_WITH_IMMEDIATE", SEND | ONLY | IMMEDIATE | REQUEST | PAYLOAD, IMM_DT),
        new Row(0x06, "RDMA_WRITE_FIRST", WRITE | FIRST | REQUEST | PAYLOAD, RETH),
        new Row(0x07, "RDMA_WRITE_MIDDLE", WRITE | MIDDLE | REQUEST | PAYLOAD, 0),
        new Row(0x08, "RDMA_WRITE_LAST", WRITE | LAST | REQUEST | PAYLOAD, 0),
        new Row(0x09, "RDMA_WRITE_LAST_WITH_IMMEDIATE", WRITE | LAST | IMMEDIATE | REQUEST | PAYLOAD, IMM_DT),
        new Row(0x0A, "RDMA_WRITE_ONLY", WRITE | ONLY | REQUEST | PAYLOAD, RETH),
        new Row(0x0B, "RDMA_WRITE_ONLY_WITH_IMMEDIATE", WRITE | ONLY | IMMEDIATE | REQUEST | PAYLOAD,
                RETH | IMM_DT),
        new Row(0x0C, "RDMA_READ_REQUEST", READ | ONLY | REQUEST, RETH),
        new Row(0x0D, "RDMA_READ_RESPONSE_FIRST", READ | FIRST | RESPONSE | PAYLOAD, AETH),
        new Row(0x0E, "RDMA_READ_RESPONSE_MIDDLE", READ | MIDDLE | RESPONSE | PAYLOAD, 0),
        new Row(0x0F, "RDMA_READ_RESPONSE_LAST", READ | LAST | RESPONSE | PAYLOAD, AETH),
        new Row(0x10, "RDMA_READ_RESPONSE_ONLY", READ | ONLY | RESPONSE | PAYLOAD, AETH),
        new Row(0x11, "ACKNOWLEDGE", ACK | ONLY | RESPONSE, AETH),
        new Row(0x12, "ATOMIC_ACKNOWLEDGE", ATOMIC | ACK | ONLY | RESPONSE, AETH | ATOMIC_ACK_ETH),
        new Row(0x13, "COMPARE_SWAP", ATOMIC | ONLY | REQUEST, ATOMIC_ETH),
        new Row(0x14, "FETCH_ADD", ATOMIC | ONLY | REQUEST, ATOMIC_ETH),
        new Row(0x16, "SEND_LAST_WITH_INVALIDATE", SEND | LAST | INVALIDATE | REQUEST | PAYLOAD, IETH),
        new Row(0x17, "SEND_ONLY_WITH_INVALIDATE", SEND | ONLY | INVALIDATE | REQUEST | PAYLOAD, IETH),
        new Row(0x1C, "FLUSH", FLUSH | ONLY | REQUEST, FETH | RETH),
        new Row(0x1D, "ATOMIC_WRITE", ATOMIC_WRITE | ONLY | REQUEST | PAYLOAD, RETH),
    };

    /** Low five bits that UC supports (IBA Table 38: SEND and RDMA WRITE only). */
    private static boolean ucSupports(int low) {
        return low <= 0x0B;
    }

    /** UD supports SEND_ONLY and SEND_ONLY_WITH_IMMEDIATE, each with a DETH. */
    private static boolean udSupports(int low) {
        return low == 0x04 || low == 0x05;
    }

    static Opcode define(int code) {
        if (code == Opcode.CNP_CODE) {
            return new Opcode(code, "CNP", Transport.CNP, CONGESTION_NOTIFICATION, CNP, true);
        }
        int low = code & 0x1F;
        Row row = null;
        for (Row r : OPERATIONS) {
            if (r.low == low) {
                row = r;
                break;
            }
        }
        switch (code >>> 5) {
            case 0:
                if (row != null) {
                    return new Opcode(code, "RC_" + row.name, Transport.RC, row.flags, row.headers, true);
                }
                break;
            case 1:
                if (row != null && ucSupports(low)) {
                    return new Opcode(code, "UC_" + row.name, Transport.UC, row.flags, row.headers, true);
                }
                break;
            case 3:
                if (row != null && udSupports(low)) {
                    return new Opcode(code, "UD_" + row.name, Transport.UD, row.flags, row.headers | DETH, true);
                }
                break;
            default:
                break;
        }
        Transport t = switch (code >>> 5) {
            case 0 -> Transport.RC;
            case 1 -> Transport.UC;
            case 2 -> Transport.RD;
            case 3 -> Transport.UD;
            default -> Transport.UNKNOWN;
        };
        return new Opcode(code, String.format("UNKNOWN_0x%02X", code), t, 0, 0, false);
    }
}
