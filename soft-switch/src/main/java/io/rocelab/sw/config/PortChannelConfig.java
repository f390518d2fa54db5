package io.rocelab.sw.config;

import java.util.List;
import java.util.Objects;

/**
 * One link aggregation group, from SONiC's {@code PORTCHANNEL|PortChannel0001} and its
 * {@code PORTCHANNEL_MEMBER|PortChannel0001|Ethernet0} entries: one logical port for learning,
 * flooding and routes, its frames spread over the members by the flow hash.
 *
 * @param name       e.g. {@code PortChannel0001} (SONiC's pattern: {@code PortChannel} and up to four digits)
 * @param adminUp    {@code admin_status} ("up" unless "down")
 * @param mtu        {@code mtu}: SONiC sets it on every member, and so does the switch
 * @param minLinks   {@code min_links}: the group is up only with at least this many members distributing
 * @param lacp       false for {@code static "true"} (no LACP: a member distributes while its link is up)
 * @param fastRate   {@code fast_rate}: the partner is asked for a LACPDU every second (short timeout), else every 30 s
 * @param fallback   {@code fallback}: without any LACP partner, one member forwards as if it were a plain port
 * @param lacpKey    {@code lacp_key}: the actor's key (from the name's number when {@code "auto"})
 * @param members    the member ports, in the order given
 */
public record PortChannelConfig(String name, boolean adminUp, int mtu, int minLinks, boolean lacp, boolean fastRate,
                                boolean fallback, int lacpKey, List<String> members) {
    /** SONiC's default {@code PORTCHANNEL mtu}. */
    public static final int DEFAULT_MTU = 9100;

    public PortChannelConfig {
        Objects.requireNonNull(name, "name");
        members = List.copyOf(members);
    }

    /** @return the number SONiC's {@code lacp_key "auto"} takes: the digits of the name, or 0 */
    public static int autoKey(String name) {
        String digits = name.startsWith("PortChannel") ? name.substring("PortChannel".length()) : "";
        try {
            return digits.isEmpty() ? 0 : Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
