package io.rocelab.sw.config;

import java.util.BitSet;

/**
 * The VLANs one port belongs to, from SONiC's {@code VLAN_MEMBER} table: an access port is an
 * untagged member of one VLAN; a trunk port is a tagged member of several, and may also be an
 * untagged member of one (its native VLAN). The untagged VLAN is the port's PVID: untagged and
 * priority-tagged frames received on the port belong to it (IEEE 802.1Q 6.9).
 */
public final class VlanMembership {
    /** No untagged VLAN: untagged frames are not accepted. */
    public static final int NONE = 0;

    private final BitSet members = new BitSet(4096);
    private final BitSet tagged = new BitSet(4096);
    private int pvid = NONE;

    /** Adds the port to {@code vid}, tagged or untagged (the latter becomes the PVID). */
    void add(int vid, boolean isTagged) {
        members.set(vid);
        if (isTagged) {
            tagged.set(vid);
        } else {
            pvid = vid;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VlanMembership v && pvid == v.pvid && members.equals(v.members) && tagged.equals(v.tagged);
    }

    @Override
    public int hashCode() {
        return members.hashCode() * 31 + pvid;
    }

    @Override
    public String toString() {
        return "VlanMembership[pvid " + pvid + ", members " + members + ", tagged " + tagged + "]";
    }

    /** @return the VLAN of untagged frames, or {@link #NONE} */
    public int pvid() {
        return pvid;
    }

    /** @return true if the port is a member of {@code vid} */
    public boolean isMember(int vid) {
        return members.get(vid);
    }

    /** @return true if frames of {@code vid} leave this port tagged */
    public boolean isTagged(int vid) {
        return tagged.get(vid);
    }
}
