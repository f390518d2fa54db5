package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;

/**
 * One readable fragment per CM message for {@code rocelab decode}: the message name, the
 * communication IDs and what each message is for (REQ: service, QPN, PSN, MTU and rdma_cm's IP
 * header; REP: QPN and PSN; DREQ: the QPN; REJ: the reason).
 */
public final class CmSummary {
    private CmSummary() {
    }

    /**
     * Appends {@code " CM REQ ..."} when the {@code length} bytes at {@code off} are a CM MAD, and
     * returns whether they were.
     */
    public static boolean describe(ByteBuf b, int off, int length, StringBuilder sb) {
        if (!MadHeader.isCm(b, off, length)) {
            return false;
        }
        CmAttribute a = CmAttribute.of(MadHeader.attributeId(b, off));
        int d = off + MadHeader.LENGTH;
        sb.append(" CM ").append(a == null ? String.format("attr 0x%04x", MadHeader.attributeId(b, off)) : a.name());
        if (a == null) {
            return true;
        }
        switch (a) {
            case REQ -> {
                CmReq r = CmReq.decode(b, d);
                sb.append(String.format(" lcid 0x%08x sid %s QPN 0x%06x PSN 0x%06x MTU %d", r.localCommId(),
                        CmServiceId.describe(r.serviceId()), r.localQpn(), r.startingPsn(), 128 << r.pathMtu()));
                if (CmServiceId.isIp(r.serviceId())) {
                    CmaIpHeader h = CmaIpHeader.decode(b, d + CmReq.PRIVATE_DATA);
                    if (h.ipVersion() == 4 || h.ipVersion() == 6) {
                        sb.append(" from ").append(text(h.sourceAddress())).append(':').append(h.sourcePort())
                                .append(" to ").append(text(h.destinationAddress()));
                    }
                }
            }
            case REP -> {
                CmRep r = CmRep.decode(b, d);
                sb.append(String.format(" lcid 0x%08x rcid 0x%08x QPN 0x%06x PSN 0x%06x", r.localCommId(),
                        r.remoteCommId(), r.localQpn(), r.startingPsn()));
            }
            case DREQ -> {
                CmDreq r = CmDreq.decode(b, d);
                sb.append(String.format(" lcid 0x%08x rcid 0x%08x QPN 0x%06x", r.localCommId(), r.remoteCommId(),
                        r.remoteQpn()));
            }
            case REJ -> {
                CmRej r = CmRej.decode(b, d);
                sb.append(String.format(" lcid 0x%08x rcid 0x%08x reason %d", r.localCommId(), r.remoteCommId(),
                        r.reason()));
            }
            default -> sb.append(String.format(" lcid 0x%08x rcid 0x%08x", b.getInt(d), b.getInt(d + 4)));
        }
        return true;
    }

    private static String text(InetAddress a) {
        return a.getHostAddress();
    }
}
