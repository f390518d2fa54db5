package io.rocelab.codec.lldp;

import java.util.List;

/**
 * The DCBX content of one LLDPDU in IEEE mode (IEEE 802.1Qaz-2011 clause D.2, the organizationally
 * specific TLVs of OUI 00-80-C2): each part is {@code null} when the LLDPDU does not carry its TLV.
 *
 * @param etsConfiguration  the ETS Configuration TLV (subtype 9): the sender's own ETS, with its willing bit
 * @param etsRecommendation the ETS Recommendation TLV (subtype 10): what the sender asks a willing peer to use
 * @param pfc               the PFC Configuration TLV (subtype 11)
 * @param applications      the Application Priority TLV (subtype 12)'s entries; {@code null} without the TLV
 */
public record Dcbx(DcbxEts etsConfiguration, DcbxEts etsRecommendation, DcbxPfc pfc, List<DcbxApp> applications) {
    /** IEEE 802.1's OUI, 00-80-C2. */
    public static final int IEEE_8021_OUI = 0x0080C2;
    /** Subtype of the ETS Configuration TLV (802.1Qaz D.2.8). */
    public static final int SUBTYPE_ETS_CONFIGURATION = 9;
    /** Subtype of the ETS Recommendation TLV (802.1Qaz D.2.9). */
    public static final int SUBTYPE_ETS_RECOMMENDATION = 10;
    /** Subtype of the PFC Configuration TLV (802.1Qaz D.2.10). */
    public static final int SUBTYPE_PFC_CONFIGURATION = 11;
    /** Subtype of the Application Priority TLV (802.1Qaz D.2.11). */
    public static final int SUBTYPE_APPLICATION_PRIORITY = 12;

    public Dcbx {
        applications = applications == null ? null : List.copyOf(applications);
    }

    /** Nothing of DCBX: an LLDPDU without the IEEE 802.1 DCBX TLVs. */
    public static final Dcbx NONE = new Dcbx(null, null, null, null);

    public boolean isEmpty() {
        return etsConfiguration == null && etsRecommendation == null && pfc == null && applications == null;
    }
}
