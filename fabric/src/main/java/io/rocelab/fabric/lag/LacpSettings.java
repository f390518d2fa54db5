package io.rocelab.fabric.lag;

import io.rocelab.codec.header.Lacpdu;

/**
 * What an actor says of itself in every LACPDU (IEEE 802.1AX 6.4.2.3), and how it runs.
 *
 * @param systemPriority the system priority (teamd's default 65535)
 * @param system         the system id, a MAC: the same on every port of the system (of an MLAG pair)
 * @param key            the operational key: ports that may aggregate together share it
 * @param portPriority   the port priority (teamd's default 255)
 * @param port           the port number, unique in the system
 * @param fastRate       short timeout: the partner is asked for an LACPDU every second (expires after 3 s);
 *                       else every 30 s (expires after 90 s)
 * @param active         LACP_Activity: send LACPDUs even to a passive partner
 */
public record LacpSettings(int systemPriority, long system, int key, int portPriority, int port, boolean fastRate,
                           boolean active) {
    /** teamd's defaults, which SONiC's port channels use. */
    public static final int DEFAULT_SYSTEM_PRIORITY = 65535;
    public static final int DEFAULT_PORT_PRIORITY = 255;

    /** @return the actor information TLV with {@code state} */
    public Lacpdu.Info info(int state) {
        return new Lacpdu.Info(systemPriority, system, key, portPriority, port, state);
    }

    /** @return a copy with another system id (an MLAG pair's shared one) */
    public LacpSettings withSystem(long newSystem) {
        return new LacpSettings(systemPriority, newSystem, key, portPriority, port, fastRate, active);
    }
}
