package io.rocelab.codec.mad;

/** The Communication Manager's attributes (IBA 12.6.1 table 96): one per CM message. */
public enum CmAttribute {
    CLASS_PORT_INFO(0x0001),
    REQ(0x0010),
    MRA(0x0011),
    REJ(0x0012),
    REP(0x0013),
    RTU(0x0014),
    DREQ(0x0015),
    DREP(0x0016),
    SIDR_REQ(0x0017),
    SIDR_REP(0x0018),
    LAP(0x0019),
    APR(0x001A);

    private static final CmAttribute[] BY_ID = new CmAttribute[0x20];

    static {
        for (CmAttribute a : values()) {
            BY_ID[a.id] = a;
        }
    }

    private final int id;

    CmAttribute(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** The attribute with this ID, or null for one the CM class does not define. */
    public static CmAttribute of(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }
}
