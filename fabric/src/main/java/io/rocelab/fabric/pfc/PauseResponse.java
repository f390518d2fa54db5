package io.rocelab.fabric.pfc;

import io.rocelab.codec.header.Pfc;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a port takes to act on a received PFC (or PAUSE) frame: the time between the frame's
 * arrival and the first frame start of a paused priority it no longer allows. Frames that start
 * before then still go out, and the frame on the wire always finishes; this is the "peer response
 * time" a lossless buffer's headroom must cover beside the bytes on the cable.
 *
 * <p>IEEE 802.3 Annex 31B.3.7 (timing considerations for PAUSE operation; PFC, IEEE 802.1Qbb, is
 * a MAC Control operation under the same timing) bounds it per PHY speed, in pause quanta of 512 bit times: 1 at
 * 100 Mb/s, 2 at 1 Gb/s, 67 at 10 Gb/s, 80 at 25 Gb/s, 118 at 40 Gb/s, 147 at 50 Gb/s, 394 at
 * 100 Gb/s, 453 at 200 Gb/s, 905 at 400 Gb/s and 800 Gb/s. The values are those SONiC's headroom
 * calculation uses ({@code sonic-swss cfgmgr/buffer_headroom_mellanox.lua},
 * {@code pause_quanta_per_speed}, peer response = quanta × 512 / 8 bytes). The default,
 * {@link #IEEE}, takes the bound for the port's speed, as a NIC at the standard's limit would: 394
 * quanta at 100 Gb/s are 201,728 bit times, 2.018 µs. A speed between two entries takes the entry
 * of the next lower speed (2.5 Gb/s: 1 Gb/s's 2 quanta).
 *
 * <p>A setting can give it in quanta ({@code 394q}, counted at the port's speed), as a time
 * ({@code 2us}, {@code 500ns}), or {@code 0}: the port stops at once, only the frame on the wire
 * finishes (rocelab's behaviour before the response time was modelled, and ns-3's).
 *
 * @param quanta pause quanta at the port's speed, or -1 if {@code nanos} gives the time, or
 *               {@link #IEEE}'s -2 for the standard's bound at the port's speed
 * @param nanos  the time in nanoseconds when {@code quanta} is -1, else 0
 */
public record PauseResponse(int quanta, long nanos) {
    /** The standard's bound for the port's speed (IEEE 802.3 31B.3.7). */
    public static final PauseResponse IEEE = new PauseResponse(-2, 0);
    /** No delay: the port stops at once, after the frame on the wire. */
    public static final PauseResponse INSTANT = new PauseResponse(-1, 0);
    /** The longest response a setting may give: far beyond any standard's bound. */
    public static final long MAX_NANOS = 1_000_000_000L;
    /** The most quanta a setting may give (a PFC frame's pause time field). */
    public static final int MAX_QUANTA = 0xFFFF;

    private static final Pattern TEXT = Pattern.compile("([0-9]*\\.?[0-9]+)\\s*([A-Za-zµ]*)");
    /** (speed in bit/s, quanta), highest speed first: IEEE 802.3 31B.3.7. */
    private static final long[][] TABLE = {
        {400_000_000_000L, 905}, {200_000_000_000L, 453}, {100_000_000_000L, 394}, {50_000_000_000L, 147},
        {40_000_000_000L, 118}, {25_000_000_000L, 80}, {10_000_000_000L, 67}, {1_000_000_000L, 2},
        {100_000_000L, 1}};

    public PauseResponse {
        if (quanta < -2 || quanta > MAX_QUANTA) {
            throw new IllegalArgumentException("pause response quanta must be 0.." + MAX_QUANTA + ": " + quanta);
        }
        if (nanos < 0 || nanos > MAX_NANOS || quanta != -1 && nanos != 0) {
            throw new IllegalArgumentException("pause response nanos must be 0.." + MAX_NANOS + " with quanta -1: "
                + nanos);
        }
    }

    /** A response of {@code quanta} pause quanta at the port's speed. */
    public static PauseResponse ofQuanta(int quanta) {
        return new PauseResponse(quanta, 0);
    }

    /** A response of {@code nanos} nanoseconds whatever the port's speed. */
    public static PauseResponse ofNanos(long nanos) {
        return new PauseResponse(-1, nanos);
    }

    /**
     * Reads a setting as lab files and flags write it: {@code ieee} (the standard's bound for the
     * port's speed), {@code 394q} (quanta; {@code quanta} also), a time ({@code 2us}, {@code 2µs},
     * {@code 500ns}, {@code 1ms}, {@code 1s}), or {@code 0}.
     *
     * @throws IllegalArgumentException one line saying what is accepted
     */
    public static PauseResponse parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.equalsIgnoreCase("ieee")) {
            return IEEE;
        }
        Matcher m = TEXT.matcher(t);
        String accepted = "a pause response: ieee, quanta (394q), a time (2us, 500ns) or 0";
        if (t.startsWith("-") && TEXT.matcher(t.substring(1)).matches()) {
            throw new IllegalArgumentException("'" + text + "' is negative; a pause response is ieee, quanta (394q),"
                + " a time (2us, 500ns) or 0");
        }
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not " + accepted);
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        double scale = switch (unit) {
            case "q", "quanta" -> -1;
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "" -> v == 0 ? 1 : Double.NaN;
            default -> Double.NaN;
        };
        if (Double.isNaN(scale)) {
            throw new IllegalArgumentException("'" + text + "' is not " + accepted
                + (unit.isEmpty() ? " (a number needs a unit)" : " (unknown unit '" + m.group(2) + "')"));
        }
        if (scale < 0) {
            if (v != Math.rint(v) || v > MAX_QUANTA) {
                throw new IllegalArgumentException("'" + text + "' is not a whole number of quanta 0.." + MAX_QUANTA);
            }
            return ofQuanta((int) v);
        }
        double nanos = v * scale;
        if (nanos > MAX_NANOS) {
            throw new IllegalArgumentException("'" + text + "' is longer than the 1s a pause response may be");
        }
        return ofNanos(Math.round(nanos));
    }

    /**
     * @param bitsPerSecond the port's speed (0: a port without a line rate, which has no bit times
     *                      and acts at once unless a time is given)
     * @return the response time in nanoseconds on a port of that speed
     */
    public long nanosAt(long bitsPerSecond) {
        if (quanta == -1) {
            return nanos;
        }
        if (bitsPerSecond <= 0) {
            return 0;
        }
        int q = quanta == -2 ? ieeeQuanta(bitsPerSecond) : quanta;
        return q == 0 ? 0 : Pfc.quantaToNanos(q, bitsPerSecond);
    }

    /**
     * @param bitsPerSecond the port's speed
     * @return the bytes a port of that speed sends in the response time: what a receiver's headroom
     *         must hold for it (SONiC's peer response, quanta × 512 / 8: 25,216 bytes at 100 Gb/s)
     */
    public long bytesAt(long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            return 0;
        }
        if (quanta != -1) {
            int q = quanta == -2 ? ieeeQuanta(bitsPerSecond) : quanta;
            return (long) q * Pfc.BITS_PER_QUANTUM / 8;
        }
        return (long) Math.ceil(nanos * (double) bitsPerSecond / 8e9);
    }

    /** @return IEEE 802.3 31B.3.7's bound in pause quanta for a port of {@code bitsPerSecond} */
    public static int ieeeQuanta(long bitsPerSecond) {
        for (long[] row : TABLE) {
            if (bitsPerSecond >= row[0]) {
                return (int) row[1];
            }
        }
        return 1; // 10 Mb/s and 100 Mb/s: one quantum
    }

    /** @return the setting as {@link #parse} reads it: {@code ieee}, {@code 394q}, {@code 2000ns}, {@code 0} */
    @Override
    public String toString() {
        if (quanta == -2) {
            return "ieee";
        }
        if (quanta >= 0) {
            return quanta == 0 ? "0" : quanta + "q";
        }
        return nanos == 0 ? "0" : nanos + "ns";
    }
}
