package io.rocelab.sw.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Ipv4;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The forwarder's one-int TTL decrement writes exactly the bytes the codec's {@code Ipv4.decrementTtl} writes. */
class TtlRewriteTest {

    @Property(tries = 2_000)
    void sameBytesAsTheCodec(@ForAll @IntRange(min = 2, max = 255) int ttl, @ForAll @IntRange(max = 255) int protocol,
                             @ForAll @IntRange(max = 0xFFFF) int checksum) {
        ByteBuf codec = Unpooled.buffer(20).writeZero(20);
        codec.setByte(Ipv4.TTL, ttl);
        codec.setByte(Ipv4.PROTOCOL, protocol);
        codec.setShort(Ipv4.CHECKSUM, checksum);
        int word = codec.getInt(Ipv4.TTL);
        Ipv4.decrementTtl(codec, 0);
        assertEquals(codec.getInt(Ipv4.TTL), ForwardStage.decrementTtl(word));
    }
}
