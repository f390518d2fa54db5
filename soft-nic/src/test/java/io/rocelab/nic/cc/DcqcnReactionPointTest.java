package io.rocelab.nic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The reaction point's trajectory for hand-made CNP traces, against values worked out by hand from
 * the rules in {@link DcqcnReactionPoint}'s javadoc (each expected value says how). Line rate 100
 * Gb/s; samples every microsecond, each the state after every event due at or before it.
 */
class DcqcnReactionPointTest {
    private static final double LINE = 100e9;
    /** Relative tolerance: the arithmetic is double precision throughout. */
    private static final double EPS = 1e-12;
    private static final double G = 1019 / 1024.0;
    private static final double ALPHA0 = 1023 / 1024.0;

    /** The trajectory of one replay, indexed by microsecond. */
    private static final class Trajectory {
        final List<DcqcnReplay.Sample> samples = new ArrayList<>();

        DcqcnReplay.Sample at(long micros) {
            DcqcnReplay.Sample s = samples.get((int) micros);
            assertEquals(micros * 1000, s.timeNanos());
            return s;
        }

        double gbps(long micros) {
            return at(micros).rateBitsPerSecond();
        }
    }

    private static Trajectory replay(DcqcnParams p, long durationMicros, double... cnpMicros) {
        long[] cnps = new long[cnpMicros.length];
        for (int i = 0; i < cnps.length; i++) {
            cnps[i] = Math.round(cnpMicros[i] * 1000);
        }
        Trajectory t = new Trajectory();
        new DcqcnReplay(p, LINE).run(cnps, 1000, durationMicros * 1000, t.samples::add);
        return t;
    }

    private static void assertRate(double expected, double actual) {
        assertEquals(expected, actual, Math.abs(expected) * EPS);
    }

    @Nested
    class DefaultsOneCnp {
        final Trajectory t = replay(DcqcnParams.defaults(), 12_000, 10);

        @Test
        void lineRateAndInitialAlphaBeforeTheCnp() {
            assertRate(LINE, t.gbps(9));
            assertEquals(ALPHA0, t.at(9).alpha());
        }

        @Test
        void theFirstCnpCutsNothingByItself() {
            // rp_rate_to_set_on_first_cnp = 0 keeps Rc; the first decrease check is 4 us later
            assertRate(LINE, t.gbps(10));
            assertRate(LINE, t.gbps(13));
        }

        @Test
        void alphaRisesOnceThenDecays() {
            // 11 us: a CNP came in the period: alpha*G + (1 - G); 12, 13 us: none, alpha*G
            double a11 = ALPHA0 * G + (1 - G);
            assertEquals(a11, t.at(11).alpha(), EPS);
            assertEquals(a11 * G * G, t.at(13).alpha(), EPS);
        }

        @Test
        void theDecreaseCheckCutsByAlphaOverTwo() {
            // 14 us: the alpha update of 14 us comes first (rule 5): alpha = (a0 G + 1 - G) G^3
            // = 0.98446534340054; rp_gd 11: cut = Rc alpha 1024/2048 < Rc/2 (rp_min_dec_fac 50)
            double a14 = (ALPHA0 * G + (1 - G)) * G * G * G;
            assertEquals(0.9844653434005428, a14, EPS);
            assertRate(LINE * (1 - a14 / 2), t.gbps(14));
            assertRate(50_776_732_829.97286, t.gbps(14));
            assertRate(LINE, t.at(14).targetBitsPerSecond()); // T = 0: rp_clamp_tgt_rate_ati leaves Rt
        }

        @Test
        void theIncreaseTimerGivesFastRecovery() {
            // 314 us: rp_time_reset after the decrease; T = 1 <= F: Rc = (Rt + Rc)/2
            assertRate(50_776_732_829.97286, t.gbps(313));
            assertRate((LINE + 50_776_732_829.97286) / 2, t.gbps(314));
            assertEquals(1, t.at(314).timerStage());
            assertEquals(0, t.at(314).byteStage());
        }

        @Test
        void theByteCounterFiresWhenTheBytesReachIt() {
            // 2,097,088 B (32767 x 64): 1,904,127.48 B at 50.78 Gb/s by 314 us, the other
            // 192,960.52 B at 75.39 Gb/s take 20,476.4 ns: B = 1 at 334.477 us
            assertEquals(0, t.at(334).byteStage());
            assertEquals(1, t.at(335).byteStage());
            assertRate((LINE + 75_388_366_414.98643) / 2, t.gbps(335));
        }

        @Test
        void cnpsStoppingLetTheRateRecoverAndTheTimersStop() {
            double previous = 0;
            for (long us = 14; us <= 12_000; us++) {
                assertTrue(t.gbps(us) >= previous, "Rc never falls without a CNP: " + us + " us");
                previous = t.gbps(us);
            }
            assertRate(LINE, t.gbps(5_000));
            assertRate(LINE, t.at(5_000).targetBitsPerSecond());
        }
    }

    @Test
    void aCnpAfterTheTimersStoppedIsAFirstCnpAgain() {
        // the same single-CNP episode twice, 10 ms apart: alpha restarts at rp_initial_alpha_value,
        // so the second first decrease cuts exactly as the first did
        Trajectory t = replay(DcqcnParams.defaults(), 10_020, 10, 10_010);
        assertRate(LINE, t.gbps(10_009));
        assertRate(50_776_732_829.97286, t.gbps(10_014));
        assertRate(t.gbps(14), t.gbps(10_014));
    }

    @Test
    void aBurstOfCnpsCutsOnEveryDecreaseCheck() {
        // CNPs every 0.5 us from 10 to 20 us: every alpha update 11..20 us has one (the CNP at
        // 11, 12, ... arrives before the update of its instant); 21, 22 us have none
        Trajectory t = replay(DcqcnParams.defaults(), 400,
            10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5, 14, 14.5, 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5, 19, 19.5, 20);
        double a = ALPHA0;
        double[] alpha = new double[23];
        for (int us = 11; us <= 20; us++) {
            a = a * G + (1 - G);
            alpha[us] = a;
        }
        alpha[21] = alpha[20] * G;
        alpha[22] = alpha[21] * G;
        // decrease checks at 14, 18, 22 us all see a CNP since the last check
        double rc14 = LINE * (1 - alpha[14] / 2);
        double rc18 = rc14 * (1 - alpha[18] / 2);
        double rc22 = rc18 * (1 - alpha[22] / 2);
        assertRate(rc14, t.gbps(14));
        assertRate(rc18, t.gbps(18));
        assertRate(rc22, t.gbps(22));
        assertRate(12_657_255_738.510767, rc22);
        assertEquals(alpha[22], t.at(22).alpha(), EPS);
        // the increase timer restarted at 22 us: T = 1 at 322 us, fast recovery
        assertRate(rc22, t.gbps(321));
        assertRate((LINE + rc22) / 2, t.gbps(322));
    }

    @Test
    void periodicCnpsCutOnTheChecksThatFollowThem() {
        // CNPs at 0, 50, 100 us: decreases at 4, 52 and 100 us (the CNP at 100 comes before the
        // check of its instant); no increase event fits between them (300 us timer, 2 MB counter)
        Trajectory t = replay(DcqcnParams.defaults(), 200, 0, 50, 100);
        double a1 = ALPHA0 * G + (1 - G);
        double a4 = a1 * G * G * G;
        double a50 = a1 * Math.pow(G, 48) * G + (1 - G);
        double a52 = a50 * G * G;
        double a100 = a52 * Math.pow(G, 47) * G + (1 - G);
        double rc4 = LINE * (1 - a4 / 2);
        double rc52 = rc4 * (1 - a52 / 2);
        double rc100 = rc52 * (1 - a100 / 2);
        assertRate(rc4, t.gbps(4));
        assertRate(rc4, t.gbps(51));
        assertRate(rc52, t.gbps(52));
        assertRate(rc52, t.gbps(99));
        assertRate(rc100, t.gbps(100));
        assertRate(21_253_756_821.921017, rc100);
        assertEquals(a100, t.at(100).alpha(), EPS);
    }

    /** The DCQCN paper's timers: F = 5, 55 us timer and alpha period, 50 us checks, 10 MiB counter. */
    @Test
    void paperParametersRecoverInElevenTimerEvents() {
        DcqcnParams paper = DcqcnParams.defaults()
            .with(DcqcnParam.RP_THRESHOLD, 5)
            .with(DcqcnParam.RP_TIME_RESET, 55)
            .with(DcqcnParam.RP_DCE_TCP_RTT, 55)
            .with(DcqcnParam.RP_DCE_TCP_G, 1020)
            .with(DcqcnParam.RP_RATE_REDUCE_MONITOR_PERIOD, 50)
            .with(DcqcnParam.RP_BYTE_RESET, 163_840)
            .with(DcqcnParam.RP_AI_RATE, 40)
            .with(DcqcnParam.RP_MIN_DEC_FAC, 0);
        Trajectory t = replay(paper, 800, 0);
        // 50 us: the first check comes before the first alpha update (55 us): cut by a0/2
        assertRate(50_048_828_125.0, t.gbps(50));
        assertEquals(ALPHA0 * (1020 / 1024.0) + 4 / 1024.0, t.at(55).alpha(), EPS);
        // timer events every 55 us from 105 us; the 10 MiB counter is not reached before 655 us
        // T = 1..5: fast recovery halves the gap to Rt = line rate
        double rc = 50_048_828_125.0;
        for (int k = 1; k <= 5; k++) {
            assertRate(rc, t.gbps(50 + 55L * k - 1));
            rc = (LINE + rc) / 2;
            assertRate(rc, t.gbps(50 + 55L * k));
        }
        assertRate(98_439_025_878.90625, t.gbps(325));
        // T = 6..10: additive increase, Rt capped at the line rate, Rc halves the gap
        assertRate(99_219_512_939.45312, t.gbps(380));
        assertRate(99_951_219_558.71582, t.gbps(600));
        // T = 11: Rc within rp_ai_rate (40 Mb/s) of the line rate: Rc = line rate
        assertRate(LINE, t.gbps(655));
        assertEquals(11, t.at(655).timerStage());
        assertEquals(0, t.at(655).byteStage());
        // the check at 700 us finds no CNP and both rates at the line: the timers stop
        assertEquals(11, t.at(750).timerStage()); // no timer event at 710 us any more
        assertRate(LINE, t.gbps(800));
    }

    /** Clamped target, a set first rate, no byte counter, rp_gd 10 (a cut capped at 50 %). */
    @Test
    void clampedTargetAndFirstCnpRate() {
        DcqcnParams p = DcqcnParams.defaults()
            .with(DcqcnParam.RP_CLAMP_TGT_RATE, 1)
            .with(DcqcnParam.RP_RATE_TO_SET_ON_FIRST_CNP, 40_000)
            .with(DcqcnParam.RP_BYTE_RESET, 0)
            .with(DcqcnParam.RP_GD, 10);
        Trajectory t = replay(p, 1_200, 0, 500);
        // 0 us: the first CNP sets Rc = 40 Gb/s; Rt stays at the line rate
        assertRate(40e9, t.gbps(0));
        assertRate(LINE, t.at(0).targetBitsPerSecond());
        // 4 us: Rt = Rc = 40; cut = min(40 alpha, 40 x 50 %) = 20
        assertRate(20e9, t.gbps(4));
        assertRate(40e9, t.at(4).targetBitsPerSecond());
        // 304 us: T = 1, fast recovery: (40 + 20)/2
        assertRate(30e9, t.gbps(304));
        // 500 us: CNP, then the check: Rt = Rc = 30; alpha = a1 G^498 G + 1 - G; cut = 30 alpha
        double a500 = (ALPHA0 * G + (1 - G)) * Math.pow(G, 498) * G + (1 - G);
        assertEquals(a500, t.at(500).alpha(), 1e-12);
        double rc500 = 30e9 * (1 - a500);
        assertRate(rc500, t.gbps(500));
        assertRate(30e9, t.at(500).targetBitsPerSecond());
        // 800 us: T = 1, fast recovery; 1100 us: T = 2 > F, B = 0 (no counter): additive
        double rc800 = (30e9 + rc500) / 2;
        assertRate(rc800, t.gbps(800));
        assertRate((30.005e9 + rc800) / 2, t.gbps(1100));
        assertRate(30.005e9, t.at(1100).targetBitsPerSecond());
        assertEquals(0, t.at(1100).byteStage());
    }

    @Test
    void noneIgnoresCnps() {
        NoCongestionControl none = new NoCongestionControl(LINE);
        assertFalse(none.onCnp(0));
        assertRate(LINE, none.rateBitsPerSecond());
        assertEquals(CongestionControl.NEVER, none.nextTimerNanos());
    }
}
