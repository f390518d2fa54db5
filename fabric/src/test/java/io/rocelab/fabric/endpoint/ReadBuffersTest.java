package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadBuffersTest {

    @Test
    void aReadBufferStartsAfterHeadroomInItsSlotAndGoesBackToThePool() {
        ReadBuffers reads = new ReadBuffers(65_536, 4);
        for (int i = 0; i < 10; i++) {
            ByteBuf b = reads.ioBuffer(65_536);
            assertEquals(0, b.writerIndex());
            assertEquals(65_536, b.writableBytes(), "a whole read fits");
            ByteBuf slot = b.unwrap();
            assertEquals(ReadBuffers.HEADROOM, b.memoryAddress() - slot.memoryAddress(), "room before the read");
            assertTrue(ReadBuffers.HEADROOM >= DatagramFrames.HEADERS, "room for a frame's headers");
            ByteBuf datagram = b.writeZero(5000).readRetainedSlice(4000);
            b.release();
            assertEquals(1, slot.refCnt(), "the datagram holds the slot");
            datagram.release();
            assertEquals(0, slot.refCnt());
        }
        assertEquals(1, reads.created(), "one slot, reused by every read");
    }

    @Test
    void aLargerRequestIsServedOutsideThePool() {
        ReadBuffers reads = new ReadBuffers(1000, 4);
        ByteBuf big = reads.directBuffer(5000);
        assertEquals(5000, big.capacity());
        big.release();
        assertEquals(0, reads.created());
    }
}
