package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Ipv4;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderTemplateTest {
    private static final long NIC_MAC = 0x0252_5400_0002L;
    private static final long SRC_MAC = 0x0252_5400_0001L;

    private static byte[] written(int srcIp, int srcPort, int dstIp, int dstPort, int length) {
        ByteBuf b = Unpooled.buffer(DatagramFrames.HEADERS);
        DatagramFrames.writeHeaders(b, NIC_MAC, SRC_MAC, srcIp, srcPort, dstIp, dstPort, length);
        return ByteBufUtil.getBytes(b, 0, DatagramFrames.HEADERS);
    }

    /** Each field changed alone, then back: every frame gets exactly the headers written afresh. */
    @Test
    void everyFrameGetsTheHeadersOfItsOwnDatagram() {
        HeaderTemplate template = new HeaderTemplate(NIC_MAC, SRC_MAC);
        int a = Ipv4.parse("10.0.0.1");
        int b = Ipv4.parse("10.0.0.2");
        int[][] datagrams = {
            {a, 0xC000, b, 4791, 4112}, {a, 0xC000, b, 4791, 4112}, {a, 0xC000, b, 4791, 700},
            {a, 0xC001, b, 4791, 700}, {Ipv4.parse("10.0.0.3"), 0xC001, b, 4791, 700},
            {a, 0xC001, Ipv4.parse("10.0.0.9"), 4791, 700}, {a, 0xC001, b, 4792, 700}, {a, 0xC000, b, 4791, 4112},
        };
        for (int[] d : datagrams) {
            // the frame's headers start at its reader index, as in a slice of a read buffer
            ByteBuf frame = Unpooled.buffer(100 + DatagramFrames.HEADERS).writeZero(100 + DatagramFrames.HEADERS)
                .readerIndex(100);
            template.write(frame, d[0], d[1], d[2], d[3], d[4]);
            assertArrayEquals(written(d[0], d[1], d[2], d[3], d[4]),
                ByteBufUtil.getBytes(frame, 100, DatagramFrames.HEADERS), java.util.Arrays.toString(d));
            assertTrue(Ipv4.checksumOk(frame, 100 + 14), "IPv4 header checksum");
        }
    }
}
