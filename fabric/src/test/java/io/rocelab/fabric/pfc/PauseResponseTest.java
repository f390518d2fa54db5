package io.rocelab.fabric.pfc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** IEEE 802.3 31B.3.7's response bound per speed, and the setting's spellings. */
class PauseResponseTest {
    private static final long G = 1_000_000_000L;

    @Test
    void theIeeeBoundPerSpeedAsSonicsHeadroomCalculationTakesIt() {
        assertEquals(1, PauseResponse.ieeeQuanta(100_000_000L));
        assertEquals(2, PauseResponse.ieeeQuanta(G));
        assertEquals(67, PauseResponse.ieeeQuanta(10 * G));
        assertEquals(80, PauseResponse.ieeeQuanta(25 * G));
        assertEquals(118, PauseResponse.ieeeQuanta(40 * G));
        assertEquals(147, PauseResponse.ieeeQuanta(50 * G));
        assertEquals(394, PauseResponse.ieeeQuanta(100 * G));
        assertEquals(453, PauseResponse.ieeeQuanta(200 * G));
        assertEquals(905, PauseResponse.ieeeQuanta(400 * G));
        assertEquals(905, PauseResponse.ieeeQuanta(800 * G));
        assertEquals(2, PauseResponse.ieeeQuanta(2_500_000_000L), "between two entries: the lower speed's");
        assertEquals(1, PauseResponse.ieeeQuanta(10_000_000L));
    }

    @Test
    void theDefaultAt100GIs394QuantaOf512BitTimes() {
        // 394 x 512 = 201,728 bit times: 2,017.28 ns, rounded up
        assertEquals(2_018, PauseResponse.IEEE.nanosAt(100 * G));
        assertEquals(2_018, PauseResponse.parse("394q").nanosAt(100 * G));
        assertEquals(4_035, PauseResponse.parse("394q").nanosAt(50 * G), "quanta count at the port's speed");
        assertEquals(1_639, PauseResponse.IEEE.nanosAt(25 * G), "80 quanta at 25 Gb/s");
        assertEquals(0, PauseResponse.IEEE.nanosAt(0), "a port without a line rate has no bit times");
    }

    @Test
    void theBytesSentMeanwhileAreWhatAHeadroomMustHold() {
        assertEquals(25_216, PauseResponse.IEEE.bytesAt(100 * G), "SONiC's peer response at 100G: 394 x 512 / 8");
        assertEquals(57_920, PauseResponse.IEEE.bytesAt(400 * G));
        assertEquals(25_000, PauseResponse.parse("2us").bytesAt(100 * G));
        assertEquals(0, PauseResponse.parse("0").bytesAt(100 * G));
    }

    @Test
    void aTimeIsTheSameAtEverySpeed() {
        assertEquals(2_000, PauseResponse.parse("2us").nanosAt(100 * G));
        assertEquals(2_000, PauseResponse.parse("2µs").nanosAt(25 * G));
        assertEquals(500, PauseResponse.parse("500ns").nanosAt(25 * G));
        assertEquals(1_500_000, PauseResponse.parse("1.5ms").nanosAt(25 * G));
        assertEquals(0, PauseResponse.parse("0").nanosAt(100 * G));
        assertEquals(0, PauseResponse.parse("0q").nanosAt(100 * G));
        assertEquals(PauseResponse.IEEE, PauseResponse.parse("IEEE"));
    }

    @Test
    void itReadsBackWhatItWrites() {
        for (String t : new String[] {"ieee", "394q", "2000ns", "0"}) {
            assertEquals(t, PauseResponse.parse(t).toString());
        }
    }

    @Test
    void badSettingsSayWhatIsAccepted() {
        for (String t : new String[] {"-1us", "2", "3 parsecs", "2xs", "", "1.5q", "70000q", "2s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PauseResponse.parse(t),
                t);
            assertTrue(e.getMessage().contains("'" + t + "'"), e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PauseResponse.parse("7furlongs")).getMessage()
            .contains("unknown unit 'furlongs'"));
    }
}
