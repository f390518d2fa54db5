package io.rocelab.sw.pipeline;

import io.rocelab.codec.DecodeError;
import io.rocelab.codec.ParsedFrame;

/**
 * Parser: locates the headers with the codec's {@link ParsedFrame} flyweight and copies what later
 * stages need into the {@link PacketContext}. A malformed frame is reported, never thrown.
 */
public final class ParseStage {
    private final ParsedFrame parsed = new ParsedFrame();

    /**
     * @param ctx a context holding a frame
     * @return true if the frame can go on; false if it is malformed
     */
    public boolean apply(PacketContext ctx) {
        DecodeError error = parsed.parse(ctx.frame);
        if (error != null) {
            return false;
        }
        ctx.kind = parsed.kind();
        ctx.dstMac = parsed.dstMac();
        ctx.srcMac = parsed.srcMac();
        ctx.l3Offset = parsed.l3Offset();
        ctx.ipVersion = parsed.ipVersion();
        ctx.l4Protocol = parsed.l4Protocol();
        ctx.l4Offset = parsed.l4Offset();
        ctx.vlanOffset = parsed.vlanCount() == 0 ? -1 : parsed.vlanOffset(parsed.vlanCount() - 1);
        ctx.pcp = parsed.pcp();
        ctx.dscp = parsed.dscp();
        ctx.ecn = parsed.ecn();
        return true;
    }
}
