package io.rocelab.codec.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The opcode table against IBA 9.2.1 Table 38 and the header order of IBA 9.2. */
class OpcodeTest {

    /** Code, name and the headers after the BTH, written out from IBA Table 38 by hand. */
    private static final Object[][] IBA_TABLE_38 = {
        {0x00, "RC_SEND_FIRST", ""},
        {0x01, "RC_SEND_MIDDLE", ""},
        {0x02, "RC_SEND_LAST", ""},
        {0x03, "RC_SEND_LAST_WITH_IMMEDIATE", "IMM_DT"},
        {0x04, "RC_SEND_ONLY", ""},
        {0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", "IMM_DT"},
        {0x06, "RC_RDMA_WRITE_FIRST", "RETH"},
        {0x07, "RC_RDMA_WRITE_MIDDLE", ""},
        {0x08, "RC_RDMA_WRITE_LAST", ""},
        {0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", "IMM_DT"},
        {0x0A, "RC_RDMA_WRITE_ONLY", "RETH"},
        {0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", "RETH IMM_DT"},
        {0x0C, "RC_RDMA_READ_REQUEST", "RETH"},
        {0x0D, "RC_RDMA_READ_RESPONSE_FIRST", "AETH"},
        {0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", ""},
        {0x0F, "RC_RDMA_READ_RESPONSE_LAST", "AETH"},
        {0x10, "RC_RDMA_READ_RESPONSE_ONLY", "AETH"},
        {0x11, "RC_ACKNOWLEDGE", "AETH"},
        {0x12, "RC_ATOMIC_ACKNOWLEDGE", "AETH ATOMIC_ACK_ETH"},
        {0x13, "RC_COMPARE_SWAP", "ATOMIC_ETH"},
        {0x14, "RC_FETCH_ADD", "ATOMIC_ETH"},
        {0x16, "RC_SEND_LAST_WITH_INVALIDATE", "IETH"},
        {0x17, "RC_SEND_ONLY_WITH_INVALIDATE", "IETH"},
        {0x1C, "RC_FLUSH", "FETH RETH"},
        {0x1D, "RC_ATOMIC_WRITE", "RETH"},
        {0x20, "UC_SEND_FIRST", ""},
        {0x21, "UC_SEND_MIDDLE", ""},
        {0x22, "UC_SEND_LAST", ""},
        {0x23, "UC_SEND_LAST_WITH_IMMEDIATE", "IMM_DT"},
        {0x24, "UC_SEND_ONLY", ""},
        {0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", "IMM_DT"},
        {0x26, "UC_RDMA_WRITE_FIRST", "RETH"},
        {0x27, "UC_RDMA_WRITE_MIDDLE", ""},
        {0x28, "UC_RDMA_WRITE_LAST", ""},
        {0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", "IMM_DT"},
        {0x2A, "UC_RDMA_WRITE_ONLY", "RETH"},
        {0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", "RETH IMM_DT"},
        {0x64, "UD_SEND_ONLY", "DETH"},
        {0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", "DETH IMM_DT"},
        {0x81, "CNP", "CNP"},
    };

    @Test
    void knownOpcodesMatchIbaTable38() {
        Map<Integer, String> known = new TreeMap<>();
        for (Object[] row : IBA_TABLE_38) {
            int code = (Integer) row[0];
            Opcode op = Opcode.of(code);
            assertTrue(op.isKnown(), op.name());
            assertEquals(row[1], op.name());
            List<String> headers = new ArrayList<>();
            op.headers().forEach(h -> headers.add(h.name()));
            assertEquals(row[2], String.join(" ", headers), op.name());
            known.put(code, op.name());
        }
        for (int code = 0; code < 256; code++) {
            if (!known.containsKey(code)) {
                assertFalse(Opcode.of(code).isKnown(), String.format("0x%02x should be unknown", code));
                assertEquals(String.format("UNKNOWN_0x%02X", code), Opcode.of(code).name());
                assertEquals(12, Opcode.of(code).headerLength(), "unknown opcodes carry everything as payload");
            }
        }
    }

    @Test
    void headerOffsetsFollowWireOrder() {
        // IBA 9.2: BTH [DETH] [RETH] [AtomicETH] [AETH] [AtomicAckETH] [ImmDt|IETH]
        assertEquals(12, Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.offsetOf(ExtHeader.RETH));
        assertEquals(28, Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.offsetOf(ExtHeader.IMM_DT));
        assertEquals(32, Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.headerLength());
        assertEquals(12, Opcode.RC_ATOMIC_ACKNOWLEDGE.offsetOf(ExtHeader.AETH));
        assertEquals(16, Opcode.RC_ATOMIC_ACKNOWLEDGE.offsetOf(ExtHeader.ATOMIC_ACK_ETH));
        assertEquals(24, Opcode.RC_ATOMIC_ACKNOWLEDGE.headerLength());
        assertEquals(12, Opcode.UD_SEND_ONLY_WITH_IMMEDIATE.offsetOf(ExtHeader.DETH));
        assertEquals(20, Opcode.UD_SEND_ONLY_WITH_IMMEDIATE.offsetOf(ExtHeader.IMM_DT));
        assertEquals(40, Opcode.RC_COMPARE_SWAP.headerLength());
        assertEquals(12, Opcode.RC_FLUSH.offsetOf(ExtHeader.FETH));
        assertEquals(16, Opcode.RC_FLUSH.offsetOf(ExtHeader.RETH));
        assertEquals(28, Opcode.CNP.headerLength());
        assertEquals(-1, Opcode.RC_SEND_ONLY.offsetOf(ExtHeader.RETH));
    }

    @Test
    void meaningFlags() {
        assertTrue(Opcode.RC_SEND_FIRST.has(Opcode.SEND | Opcode.FIRST | Opcode.REQUEST));
        assertTrue(Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE.has(Opcode.WRITE | Opcode.LAST | Opcode.IMMEDIATE));
        assertTrue(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE.has(Opcode.READ | Opcode.MIDDLE | Opcode.RESPONSE));
        assertFalse(Opcode.RC_RDMA_READ_REQUEST.has(Opcode.PAYLOAD));
        assertTrue(Opcode.RC_ACKNOWLEDGE.has(Opcode.ACK | Opcode.RESPONSE));
        assertTrue(Opcode.RC_FETCH_ADD.has(Opcode.ATOMIC | Opcode.REQUEST));
        assertTrue(Opcode.RC_SEND_ONLY_WITH_INVALIDATE.has(Opcode.INVALIDATE));
        assertTrue(Opcode.UD_SEND_ONLY.has(Opcode.SEND | Opcode.ONLY));
        assertEquals(Transport.UD, Opcode.UD_SEND_ONLY.transport());
        assertEquals(Transport.UC, Opcode.UC_RDMA_WRITE_ONLY.transport());
        assertEquals(Transport.CNP, Opcode.CNP.transport());
        assertEquals(Transport.RD, Opcode.of(0x44).transport());
        for (int code = 0; code < 256; code++) {
            Opcode op = Opcode.of(code);
            assertNotNull(op);
            assertSame(op, Opcode.of(code + 256), "only the low byte counts");
            assertEquals(code, op.code());
            if (op.isKnown() && op.transport() != Transport.CNP) {
                assertTrue(op.has(Opcode.REQUEST) ^ op.has(Opcode.RESPONSE), op.name());
                int position = op.flags() & (Opcode.FIRST | Opcode.MIDDLE | Opcode.LAST | Opcode.ONLY);
                assertEquals(1, Integer.bitCount(position), op.name() + " has exactly one position");
            }
        }
    }

    @Test
    void aethSyndromes() {
        assertEquals(AethSyndrome.Kind.ACK, AethSyndrome.kind(AethSyndrome.ack(31)));
        assertEquals(0x1F, AethSyndrome.ack(31));
        assertEquals(0x2E, AethSyndrome.rnrNak(14));
        assertEquals(0x60, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
        assertEquals(0x62, AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR));
        assertEquals("NAK(REMOTE_ACCESS_ERROR)", AethSyndrome.describe(0x62));
        assertEquals("RNR_NAK(timer 14)", AethSyndrome.describe(0x2E));
        assertEquals(NakCode.RESERVED, NakCode.of(9));
    }

    @Test
    void psnArithmeticWraps() {
        assertEquals(0, Psn.next(0xFFFFFF));
        assertEquals(2, Psn.add(0xFFFFFF, 3));
        assertEquals(1, Psn.diff(0, 0xFFFFFF));
        assertEquals(-1, Psn.diff(0xFFFFFF, 0));
        assertTrue(Psn.before(0xFFFFF0, 5));
        assertTrue(Psn.after(5, 0xFFFFF0));
        assertEquals(-(1 << 23), Psn.diff(1 << 23, 0));
        assertEquals((1 << 23) - 1, Psn.diff((1 << 23) - 1, 0));
    }
}
