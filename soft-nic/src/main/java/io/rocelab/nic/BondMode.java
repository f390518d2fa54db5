package io.rocelab.nic;

import java.util.Locale;

/**
 * How a bonded NIC's two ports share its QPs (RoCE LAG), under the Linux bonding driver's names.
 */
public enum BondMode {
    /**
     * {@code mode=active-backup}: every QP on the active port; when its link goes down the other
     * port becomes active and takes them all. The active port stays where it is when the first
     * comes back (no {@code primary}).
     */
    ACTIVE_BACKUP("active-backup"),
    /**
     * {@code mode=balance-xor xmit_hash_policy=layer3+4} (also what 802.3ad hashes with): a QP
     * leaves by the port its addresses and UDP ports hash to, as the bond hashes a flow, so a QP's
     * UDP source port decides; a port that goes down hands its QPs to the other, and they return
     * when it comes back.
     */
    BALANCE_XOR("balance-xor"),
    /**
     * {@code mode=802.3ad xmit_hash_policy=layer3+4}: LACP (IEEE 802.1AX) on both ports with the
     * link partner; a port carries QPs only while LACP says it is distributing, so a port whose
     * partner stops answering (a transmitter that died with its link up) is left within the LACP
     * timeout; among the distributing ports, balance-xor's hash. While no port is distributing yet
     * (LACP has not converged), balance-xor's choice.
     */
    LACP("802.3ad");

    private final String configName;

    BondMode(String configName) {
        this.configName = configName;
    }

    /** The bonding driver's name of the mode ({@code active-backup}, {@code balance-xor}). */
    public String configName() {
        return configName;
    }

    /**
     * The mode named {@code name} as the bonding driver spells it (or its enum name).
     *
     * @throws IllegalArgumentException naming the modes there are
     */
    public static BondMode parse(String name) {
        for (BondMode m : values()) {
            if (m.configName.equals(name) || m.name().equals(name.toUpperCase(Locale.ROOT).replace('-', '_'))) {
                return m;
            }
        }
        throw new IllegalArgumentException("bond mode must be active-backup, balance-xor or 802.3ad: " + name);
    }
}
