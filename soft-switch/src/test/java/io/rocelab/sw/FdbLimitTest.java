package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/**
 * MAC flooding fills the FDB up to its size (SWITCH|switch fdb_table_size) and no further: the
 * MACs it cannot learn are counted and their frames flooded, MACs learned before still forward to
 * their port, and aged entries leave the table in the background, with no lookup of them, while
 * the switch has nothing else to do.
 */
class FdbLimitTest {
    private static final int SIZE = 100;
    private static final long SECOND = 1_000_000_000L;

    /** A 60-byte bridged frame from {@code src} to {@code dst}. */
    private static ByteBuf frame(long src, long dst) {
        ByteBuf f = Unpooled.buffer(60, 60).writeZero(60);
        MacAddress.set(f, 0, dst);
        MacAddress.set(f, 6, src);
        f.setShort(12, 0x88B5);
        return f;
    }

    @Test
    void floodingSourceMacsFillsTheTableToItsSizeAndAgesOutInTheBackground() {
        Lab lab = new Lab(new ConfigBuilder(3, 100).switchField("fdb_table_size", String.valueOf(SIZE))
            .switchField("fdb_aging_time", "10").build());
        // host 1 speaks first: its MAC is learned on its port
        lab.links.get(1).portA().send(frame(Lab.hostMac(1), Lab.hostMac(0)));
        lab.time.runFor(1_000_000);
        // then 10,000 random source MACs from port 0, as a MAC flooding tool sends them
        int flood = 10_000;
        for (int i = 0; i < flood; i++) {
            lab.links.get(0).portA().send(frame(0x0200_0000_0000L | (0x5EED_0000L + i), 0xFFFF_FFFF_FFFFL));
            lab.time.runFor(10_000);
        }
        assertEquals(SIZE, lab.sw.fdb().entries(lab.time.nanoTime()).size(), "full, and no further");
        assertEquals(flood - (SIZE - 1), lab.sw.fdb().learnRefused(), "every MAC not learned is counted");
        String crm = SonicViews.crmFdb(lab.sw);
        assertTrue(crm.contains("fdb_entry                 100                  0"), crm);
        assertTrue(crm.contains("fdb_learn_refused (new MACs not learned, table full): " + (flood - SIZE + 1)), crm);

        // host 1, learned before the flood, is still reached on its port only
        long host2Before = lab.hosts.get(2).rxFrames;
        lab.links.get(0).portA().send(frame(Lab.hostMac(0), Lab.hostMac(1)));
        lab.time.runFor(1_000_000);
        assertEquals(host2Before, lab.hosts.get(2).rxFrames, "not flooded: host 1's entry survived the flood");

        // nothing more arrives: after the ageing time the sweep empties the table, no lookup needed,
        // and stops, leaving the switch idle
        lab.time.runFor(16 * SECOND);
        assertEquals(0, lab.sw.fdb().size(), "aged out in the background");
        assertEquals(SIZE, lab.sw.fdb().agedOut());
        assertTrue(lab.time.isIdle(), "no sweep left once the table is empty: " + lab.time);
        assertTrue(SonicViews.crmFdb(lab.sw).contains("fdb_entry                   0                100"));

        // and it learns again
        lab.links.get(1).portA().send(frame(Lab.hostMac(1), Lab.hostMac(0)));
        lab.time.runFor(1_000_000);
        assertEquals(1, lab.sw.fdb().size());
        lab.drainAndClose();
    }

    @Test
    void theSizeIsASwitchKeyWithADefault() {
        assertEquals(ConfigLoader.DEFAULT_FDB_TABLE_SIZE, new ConfigBuilder(2, 100).build().fdbTableSize());
        assertEquals(32_768, ConfigLoader.DEFAULT_FDB_TABLE_SIZE);
        ConfigException e = assertThrows(ConfigException.class,
            () -> new ConfigBuilder(2, 100).switchField("fdb_table_size", "0").build());
        assertTrue(e.getMessage().contains("fdb_table_size"), e.getMessage());
    }
}
