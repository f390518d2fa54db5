package io.rocelab.sw.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.BufferPool;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;

/**
 * The MMU against SAI's buffer model and the trigger points sonic-mgmt's QoS tests expect
 * ({@code tests/qos/files/mellanox/qos_param_generator.py}; Broadcom's in {@code tests/qos/files/qos.yml}):
 * a lossless PG pauses when its shared use reaches its dynamic limit ({@code alpha/(1+alpha)} of the
 * pool for one PG alone), drops once the headroom ({@code xoff}) behind that is spent, and resumes
 * at {@code max(xon, limit - xon_offset)}.
 */
class SaiBufferModelTest {
    private static final int FRAME = 1024;
    /** SN2700 T1 ({@code buffers_defaults_t1.j2}): ingress_lossless_pool, dynamic. */
    private static final long SN2700_POOL = 3_302_912;
    /** SN2700 {@code pg_lossless_100000_5m_profile}: size = xon + xoff. */
    private static final BufferProfile SN2700 = BufferProfile.lossless("pg_lossless", "ingress_pool", 50_176, 19_456,
        30_720, 0);
    /** Broadcom Tomahawk 100G/5 m: a small size beside a large xoff, XON 2288 below the limit. */
    private static final BufferProfile BROADCOM = new BufferProfile("pg_lossless", "ingress_pool", 1_248, 2_288,
        165_568, 2_288, -1, 0, false);
    private static final long BROADCOM_POOL = 12_766_208;

    private final StringBuilder signals = new StringBuilder();
    private Mmu mmu;
    private final ArrayDeque<PacketContext> queue = new ArrayDeque<>();

    private Mmu mmu(BufferPool pool, BufferProfile profile) {
        ConfigBuilder b = new ConfigBuilder(3, 100);
        b.tables().bufferPool(pool).bufferProfile(profile);
        return new Mmu(b.build(), new PfcSignal() {
            @Override
            public void xoff(int port, int pg) {
                signals.append("xoff").append(port).append(' ');
            }

            @Override
            public void xon(int port, int pg) {
                signals.append("xon").append(port).append(' ');
            }
        });
    }

    private DropReason arrive(int port) {
        PacketContext c = new PacketContext();
        c.ingressPort = port;
        c.priorityGroup = 3;
        c.lossless = true;
        c.egressPort = 0;
        c.queue = 3;
        c.length = FRAME;
        DropReason r = mmu.admit(c);
        if (r == null) {
            queue.add(c);
        }
        return r;
    }

    /** Frames into port 1's PG 3 until the MMU pauses it: @return the PG's bytes then */
    private long fillToPause() {
        while (!signals.toString().contains("xoff1")) {
            assertNull(arrive(1));
        }
        return mmu.pg(1, 3).used();
    }

    /** Frames on until the first drop: @return the bytes the PG held then */
    private long fillToDrop() {
        while (arrive(1) == null) {
            assertTrue(queue.size() < 1_000_000);
        }
        return mmu.pg(1, 3).used();
    }

    @Test
    void sn2700PausesAtTheSharedLimitPlusXonAndDropsAtTheSharedLimitPlusSize() {
        mmu = mmu(BufferPool.dynamic("ingress_pool", SN2700_POOL), SN2700);
        // one PG alone with dynamic_th 0 (alpha 1): shared limit = alpha/(1+alpha) * pool
        long sharedLimit = SN2700_POOL / 2;
        long pause = fillToPause();
        PgState pg = mmu.pg(1, 3);
        assertEquals(19_456, pg.reservedUsed, "size - xoff (= xon) is charged before the shared pool");
        // sonic-mgmt: pkts_num_trig_pfc = shared_limit + xon + hysteresis (size - xon - xoff = 0)
        assertEquals(sharedLimit + 19_456, pause, FRAME, "pause point");
        long drop = fillToDrop();
        // pkts_num_trig_ingr_drp = shared_limit + size (headroom = size on Mellanox)
        assertEquals(sharedLimit + 50_176, drop, FRAME, "drop point");
        assertEquals(30_720, pg.headroomUsed(), "the whole headroom (xoff) was used before the drop");
        assertEquals(1, pg.headroomDrops());
        assertEquals(1, pg.drops(), "the PG's drop counter counts it");
        assertEquals(pg.sharedUsed(), mmu.poolUsed(0), "the pool counts only its shared part");
        // XON at xon (no xon_offset): only once the PG is back to its xon bytes
        while (!signals.toString().contains("xon1")) {
            long before = pg.used();
            mmu.release(queue.poll());
            if (!signals.toString().contains("xon1")) {
                assertTrue(before - FRAME > 19_456, "no XON above xon");
            }
        }
        assertTrue(pg.used() <= 19_456 && pg.used() + FRAME > 19_456, "XON at xon: " + pg.used());
    }

    /** sonic-clear watermark starts the watermarks from what is held now; the persistent ones stay. */
    @Test
    void clearingWatermarksKeepsThePersistentOnes() {
        mmu = mmu(BufferPool.dynamic("ingress_pool", SN2700_POOL), SN2700);
        fillToDrop();
        PgState pg = mmu.pg(1, 3);
        long shared = pg.sharedWatermark();
        while (pg.headroomUsed() > 0 || pg.sharedUsed() > 0) {
            mmu.release(queue.poll());
        }
        mmu.clearWatermarks();
        assertEquals(0, pg.sharedWatermark(), "nothing shared is held now");
        assertEquals(0, pg.headroomWatermark());
        assertEquals(0, mmu.poolWatermark(0));
        assertEquals(shared, pg.persistentSharedWatermark(), "the persistent watermark keeps the peak");
        assertEquals(30_720, pg.persistentHeadroomWatermark());
        assertEquals(shared, mmu.poolPersistentWatermark(0));
    }

    @Test
    void broadcomPausesAtSizePlusSharedLimitAndDropsXoffLater() {
        mmu = mmu(BufferPool.dynamic("ingress_pool", BROADCOM_POOL), BROADCOM);
        long sharedLimit = BROADCOM_POOL / 2;
        long pause = fillToPause();
        assertEquals(1_248 + sharedLimit, pause, FRAME, "pause at size + shared limit");
        long drop = fillToDrop();
        assertEquals(pause + 165_568, drop, FRAME, "drop xoff (the headroom) after the pause");
    }

    @Test
    void xonOffsetResumesJustBelowTheLimitInsteadOfAtXon() {
        mmu = mmu(BufferPool.dynamic("ingress_pool", BROADCOM_POOL), BROADCOM);
        long pause = fillToPause();
        for (int i = 0; i < 10; i++) {
            assertNull(arrive(1)); // into the headroom
        }
        PgState pg = mmu.pg(1, 3);
        while (!signals.toString().contains("xon1")) {
            mmu.release(queue.poll());
        }
        // max(xon, limit - xon_offset): the limit grows back as the pool drains, so XON comes within
        // xon_offset (+ a frame) of the pause point, far above xon
        assertTrue(pg.used() >= pause - 2_288 - 2 * FRAME, "XON near the limit: " + pg.used() + " vs " + pause);
        assertEquals(0, pg.headroomUsed(), "the headroom is whole again at XON");

        signals.setLength(0);
        queue.clear();
        BufferProfile noOffset = new BufferProfile("pg_lossless", "ingress_pool", 1_248, 2_288, 165_568, 0, -1, 0, false);
        mmu = mmu(BufferPool.dynamic("ingress_pool", BROADCOM_POOL), noOffset);
        fillToPause();
        while (!signals.toString().contains("xon1")) {
            mmu.release(queue.poll());
        }
        assertTrue(mmu.pg(1, 3).used() <= 2_288, "without xon_offset, XON at xon");
    }

    @Test
    void aSharedHeadroomPoolIsSharedByThePgsAndCountedApart() {
        long shp = 40 * FRAME;
        mmu = mmu(new BufferPool("ingress_pool", SN2700_POOL, BufferPool.Mode.DYNAMIC, shp), SN2700);
        fillToPause();
        long pg1Headroom = 0;
        while (arrive(1) == null) {
            pg1Headroom += FRAME;
        }
        assertEquals(30_720, pg1Headroom, "PG 1 still takes at most its own xoff");
        assertEquals(30_720, mmu.poolHeadroomUsed(0));
        // port 2's PG shares the pool: it pauses (at a lower limit now, the pool being half used) and
        // has only what is left of the shared headroom pool
        while (!signals.toString().contains("xoff2")) {
            assertNull(arrive(2));
        }
        long pg2Headroom = mmu.pg(2, 3).headroomUsed();
        while (arrive(2) == null) {
            pg2Headroom = mmu.pg(2, 3).headroomUsed();
        }
        assertEquals(shp - 30_720, pg2Headroom, "the shared headroom pool ran out first");
        assertEquals(shp, mmu.poolHeadroomUsed(0));
        assertEquals(shp, mmu.poolHeadroomWatermark(0));
        assertEquals(1, mmu.pg(2, 3).headroomDrops());
        while (!queue.isEmpty()) {
            mmu.release(queue.poll());
        }
        assertEquals(0, mmu.poolHeadroomUsed(0), "given back");
        assertEquals(0, mmu.poolUsed(0));
        assertFalse(mmu.pg(1, 3).paused() || mmu.pg(2, 3).paused());
    }
}
