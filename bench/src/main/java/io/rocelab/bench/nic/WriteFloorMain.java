package io.rocelab.bench.nic;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Prints the in-process RC WRITE floor ({@link WriteDataPathFloor}: the copies and CRCs of the data
 * path, nothing else) for a message size and an MTU, for scripts that put it beside a run of
 * {@code rocelab ib_write_bw --in-process} (bench/run-udp.sh).
 *
 * <pre>
 *   WriteFloorMain SECONDS [MESSAGE_BYTES [MTU]]     defaults: 65536, 4096
 * </pre>
 *
 * One line: {@code floor-copy-crc: <Gb/s> Gb/s}, payload bits per second, after a second of warm-up.
 */
public final class WriteFloorMain {
    private WriteFloorMain() {
    }

    public static void main(String[] args) {
        int seconds = Integer.parseInt(args[0]);
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 65536;
        int mtu = args.length > 2 ? Integer.parseInt(args[2]) : 4096;
        byte[] src = new byte[size];
        ThreadLocalRandom.current().nextBytes(src);
        try (WriteDataPathFloor floor = new WriteDataPathFloor(src, new byte[size], mtu)) {
            floor.run(1_000_000_000L, true);
            double gbps = floor.run(seconds * 1_000_000_000L, true);
            if (floor.badIcrc != 0) {
                throw new IllegalStateException("floor ICRC check failed " + floor.badIcrc + " times");
            }
            System.out.printf(Locale.ROOT, "floor-copy-crc: %.2f Gb/s%n", gbps);
        }
    }
}
